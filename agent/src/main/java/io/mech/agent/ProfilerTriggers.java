package io.mech.agent;

import io.mech.hiccup.StallQueue;
import io.mech.probes.locks.LockProbe;
import io.mech.probes.locks.LockSite;
import io.mech.probes.profiler.TriggerSource;
import io.mech.probes.queues.QueueAlert;
import io.mech.probes.queues.QueueProbe;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/** The profiler's trigger sources, each reading one part of mech. */
final class ProfilerTriggers {

    private ProfilerTriggers() {
    }

    /** A hiccup at least the threshold long, read from the meter's watch ring. */
    static TriggerSource hiccup(final StallQueue stalls, final long thresholdNanos) {
        return new TriggerSource() {
            private long longest;

            @Override
            public String name() {
                return "hiccup";
            }

            @Override
            public String check(final long nowNanos) {
                longest = 0;
                stalls.poll((end, length, evidence, at) -> longest = Math.max(longest, length));
                return longest >= thresholdNanos ? String.format(Locale.ROOT, "hiccup of %.1f ms", longest / 1e6) : null;
            }
        };
    }

    /**
     * Threads blocked entering monitors or parked on j.u.c. locks for at least the threshold in
     * total over the last second, as JFR reported them to the lock probe (waits are not contention).
     * The probe leaves out mech's own blocking, so mech's threads never trigger a capture.
     */
    static TriggerSource lock(final LockProbe probe, final long thresholdNanos) {
        return new TriggerSource() {
            private static final long PERIOD_NANOS = 1_000_000_000L;
            private long lastNanos;
            private long lastTotal = -1;

            @Override
            public String name() {
                return "lock";
            }

            @Override
            public String check(final long nowNanos) {
                if (lastTotal >= 0 && nowNanos - lastNanos < PERIOD_NANOS) {
                    return null;
                }
                long total = 0;
                LockSite worst = null;
                for (final LockSite site : probe.snapshot().sites()) {
                    if (site.kind().isContention()) {
                        total += site.totalNanos();
                        if (worst == null || site.totalNanos() > worst.totalNanos()) {
                            worst = site;
                        }
                    }
                }
                final long blocked = lastTotal < 0 ? 0 : total - lastTotal;
                lastTotal = total;
                lastNanos = nowNanos;
                return blocked >= thresholdNanos && worst != null
                    ? String.format(Locale.ROOT, "%.1f ms blocked in 1 s, worst on %s at %s", blocked / 1e6, worst.lockClass(), worst.callSite())
                    : null;
            }
        };
    }

    /**
     * A back-pressure alert of the queue probe, handed over from its sampler thread. Only the
     * application's queues alert: the probe never tracks a queue mech made.
     */
    static TriggerSource queue(final QueueProbe probe) {
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
