package io.mech.exporter;

import io.mech.probes.profiler.Profiler;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The captures the profiler took on trigger, and whether it still runs. */
public final class ProfilerFamilies implements MetricFamilies {

    private final MetricMetadata capturesFamily = Metadata.counter("mech_profiler_captures", null,
        "async-profiler captures taken on trigger, by trigger");
    private final MetricMetadata inCooldownFamily = Metadata.counter("mech_profiler_triggers_in_cooldown", null,
        "Triggers that came inside profiler.cooldown and took no capture");
    private final MetricMetadata enabledFamily = Metadata.gauge("mech_profiler_enabled", null,
        "1 while the profiler can capture; 0 once it turned itself off (its library did not load)");

    private final Profiler profiler;

    /** @param profiler the running profiler */
    public ProfilerFamilies(final Profiler profiler) {
        this.profiler = profiler;
    }

    @Override
    public List<String> names() {
        return List.of("mech_profiler_captures", "mech_profiler_triggers_in_cooldown", "mech_profiler_enabled");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final Map<String, Long> byTrigger = new TreeMap<>();
        for (final Profiler.Taken capture : profiler.taken()) {
            byTrigger.merge(capture.trigger(), 1L, Long::sum);
        }
        final List<CounterSnapshot.CounterDataPointSnapshot> captures = new ArrayList<>(byTrigger.size());
        for (final Map.Entry<String, Long> e : byTrigger.entrySet()) {
            captures.add(OnePoint.counterPoint(Labels.of("trigger", e.getKey()), e.getValue()));
        }
        return List.of(new CounterSnapshot(capturesFamily, captures), OnePoint.counter(inCooldownFamily, profiler.triggersInCooldown()),
            OnePoint.gauge(enabledFamily, profiler.failed() ? 0 : 1));
    }
}
