package io.mech.exporter;

import io.mech.probes.allocation.AllocationSnapshot;
import io.mech.probes.allocation.ThreadAllocation;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * {@code mech_allocated_bytes_total}: what the JVM's threads allocated while the allocation probe
 * watched, a counter Prometheus takes a rate of; {@code mech_thread_allocated_bytes_total{thread}}:
 * the same for the host's threads that allocated most (at most five, so the label stays bounded),
 * each named as the JVM names it, a space as an underscore so that a selector needs no quoting.
 */
public final class AllocationFamilies implements MetricFamilies {

    private final MetricMetadata allocatedFamily = Metadata.counter("mech_allocated_bytes", null,
        "Bytes the JVM's threads allocated while the allocation probe watched, mech's own included");
    private final MetricMetadata byThreadFamily = Metadata.counter("mech_thread_allocated_bytes", null,
        "Bytes the host's threads that allocated most allocated while the allocation probe watched");

    private final Supplier<AllocationSnapshot> snapshots;

    /** @param snapshots the probe's latest snapshot */
    public AllocationFamilies(final Supplier<AllocationSnapshot> snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public List<String> names() {
        return List.of("mech_allocated_bytes", "mech_thread_allocated_bytes");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final AllocationSnapshot now = snapshots.get();
        final List<CounterSnapshot.CounterDataPointSnapshot> threads = new ArrayList<>(now.top().size());
        for (final ThreadAllocation thread : now.top()) {
            threads.add(OnePoint.counterPoint(Labels.of("thread", thread.thread().replace(' ', '_')), thread.bytes()));
        }
        return List.of(OnePoint.counter(allocatedFamily, now.bytes()), new CounterSnapshot(byThreadFamily, threads));
    }
}
