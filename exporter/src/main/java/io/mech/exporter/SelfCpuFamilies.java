package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * {@code mech_self_cpu_seconds_total{thread}}: the CPU time mech's own threads used, so that its cost is in plain sight.
 *
 * <p>Thread-safe: scrapes may collect concurrently; the labels made so far are kept in a concurrent map.
 */
public final class SelfCpuFamilies implements MetricFamilies {

    private final MetricMetadata cpuFamily = Metadata.counter("mech_self_cpu_seconds", Unit.SECONDS,
        "CPU time used by mech's own threads, by thread name (pool numbers dropped); ended threads keep theirs");

    private final Supplier<Map<String, Long>> cpuNanosByThread;
    /** Each thread name's labels, made once: mech's thread names, pool numbers dropped, are a dozen or so. */
    private final Map<String, Labels> labels = new ConcurrentHashMap<>();

    /** @param cpuNanosByThread CPU nanoseconds by mech thread name, pool numbers dropped */
    public SelfCpuFamilies(final Supplier<Map<String, Long>> cpuNanosByThread) {
        this.cpuNanosByThread = cpuNanosByThread;
    }

    @Override
    public List<String> names() {
        return List.of("mech_self_cpu_seconds");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final Map<String, Long> byThread = cpuNanosByThread.get();
        final List<CounterSnapshot.CounterDataPointSnapshot> cpu = new ArrayList<>(byThread.size());
        for (final Map.Entry<String, Long> thread : byThread.entrySet()) {
            cpu.add(OnePoint.counterPoint(labels.computeIfAbsent(thread.getKey(), name -> Labels.of("thread", name)), thread.getValue() / 1e9));
        }
        return List.of(new CounterSnapshot(cpuFamily, cpu));
    }
}
