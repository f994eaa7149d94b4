package io.mech.exporter;

import io.mech.probes.profiler.Profiler;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The captures the profiler took on trigger, and whether it still runs. */
public final class ProfilerFamilies implements MetricFamilies {

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
        final CounterSnapshot.Builder captures = CounterSnapshot.builder().name("mech_profiler_captures")
            .help("async-profiler captures taken on trigger, by trigger");
        for (final Map.Entry<String, Long> e : byTrigger.entrySet()) {
            captures.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("trigger", e.getKey()))
                .value(e.getValue()).build());
        }
        final CounterSnapshot skipped = CounterSnapshot.builder().name("mech_profiler_triggers_in_cooldown")
            .help("Triggers that came inside profiler.cooldown and took no capture")
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(profiler.triggersInCooldown()).build()).build();
        final GaugeSnapshot enabled = GaugeSnapshot.builder().name("mech_profiler_enabled")
            .help("1 while the profiler can capture; 0 once it turned itself off (its library did not load)")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(profiler.failed() ? 0 : 1).build()).build();
        return List.of(captures.build(), skipped, enabled);
    }
}
