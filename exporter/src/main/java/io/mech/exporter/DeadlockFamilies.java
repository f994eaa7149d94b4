package io.mech.exporter;

import io.mech.probes.deadlocks.DeadlockSnapshot;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code mech_deadlocked_threads}: how many threads the deadlock probe found waiting for each
 * other in a cycle; {@code mech_deadlock_checks_total}: how many checks it made, so that a 0 can be
 * told from no look yet.
 */
public final class DeadlockFamilies implements MetricFamilies {

    private final MetricMetadata deadlockedFamily = Metadata.gauge("mech_deadlocked_threads", null,
        "Threads deadlocked on monitors or java.util.concurrent locks, as of the deadlock probe's last check; a deadlock never ends");
    private final MetricMetadata checksFamily = Metadata.counter("mech_deadlock_checks", null, "Checks the deadlock probe made");

    private final Supplier<DeadlockSnapshot> snapshots;

    /** @param snapshots the probe's latest snapshot */
    public DeadlockFamilies(final Supplier<DeadlockSnapshot> snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public List<String> names() {
        return List.of("mech_deadlocked_threads", "mech_deadlock_checks");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final DeadlockSnapshot now = snapshots.get();
        return List.of(OnePoint.gauge(deadlockedFamily, now.threads()), OnePoint.counter(checksFamily, now.checks()));
    }
}
