package io.mech.exporter;

import io.mech.hiccup.UnmeteredStops;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.Supplier;

/**
 * What stopped the host before its hiccup meter began, from HotSpot's counters, and how far into
 * the JVM it began: fixed once the meter runs, so gauges. Nothing until then, or without counters.
 */
public final class UnmeteredFamilies implements MetricFamilies {

    private final Supplier<UnmeteredStops> unmetered;

    /** @param unmetered the stops before the meter; null until it began, or without counters */
    public UnmeteredFamilies(final Supplier<UnmeteredStops> unmetered) {
        this.unmetered = unmetered;
    }

    @Override
    public List<String> names() {
        return List.of("mech_hiccup_meter_began_seconds", "mech_hiccup_unmetered_seconds");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final UnmeteredStops before = unmetered.get();
        if (before == null) {
            return List.of();
        }
        final GaugeSnapshot.Builder stopped = GaugeSnapshot.builder().name("mech_hiccup_unmetered_seconds").unit(Unit.SECONDS)
            .help("Time the host stood stopped before its hiccup meter began, by cause, from HotSpot's counters: in no histogram");
        stopped.dataPoint(point("gc", before.gcNanos())).dataPoint(point("safepoint", before.safepointNanos()))
            .dataPoint(point("ttsp", before.ttspNanos()));
        return before.vmMillis() < 0 ? List.of(stopped.build()) : List.of(OnePoint.gauge("mech_hiccup_meter_began_seconds",
            Unit.SECONDS, "How long the JVM had run when the hiccup meter began", before.vmMillis() / 1e3), stopped.build());
    }

    private static GaugeSnapshot.GaugeDataPointSnapshot point(final String cause, final long nanos) {
        return GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("cause", cause)).value(nanos / 1e9).build();
    }
}
