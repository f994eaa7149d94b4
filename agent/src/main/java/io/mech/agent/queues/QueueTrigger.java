package io.mech.agent.queues;

import io.mech.probes.profiler.TriggerSource;
import io.mech.probes.queues.QueueAlert;
import io.mech.probes.queues.QueueProbe;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The queue part's profiler trigger: a back-pressure alert, raised by the queue probe's own
 * alert thresholds; the profiler only consumes it ({@link io.mech.agent.runtime.Part#triggers}).
 */
final class QueueTrigger {

    private QueueTrigger() {
    }

    /**
     * A back-pressure alert of the queue probe, handed over from its sampler thread. Only the
     * application's queues alert: the probe never tracks a queue mech made.
     */
    static TriggerSource of(final QueueProbe probe) {
        final AtomicReference<QueueAlert> pending = new AtomicReference<>();
        probe.addListener(pending::set);
        return new TriggerSource() {
            @Override
            public String name() {
                return "queue";
            }

            @Override
            public String check(final long nowNanos) {
                final QueueAlert alert = pending.getAndSet(null);
                return alert == null ? null : QueueLines.describe(alert);
            }
        };
    }
}
