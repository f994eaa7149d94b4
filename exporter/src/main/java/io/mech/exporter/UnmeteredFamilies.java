package io.mech.exporter;

import io.mech.hiccup.UnmeteredStops;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.Supplier;

/**
 * What stopped the host before its hiccup meter began, from HotSpot's counters, and how far into
 * the JVM it began: fixed once the meter runs, so gauges. Nothing until then, or without counters.
 */
public final class UnmeteredFamilies implements MetricFamilies {

    private final MetricMetadata stoppedFamily = Metadata.gauge("mech_hiccup_unmetered_seconds", Unit.SECONDS,
        "Time the host stood stopped before its hiccup meter began, by cause, from HotSpot's counters: in no histogram");
    private final MetricMetadata beganFamily = Metadata.gauge("mech_hiccup_meter_began_seconds", Unit.SECONDS,
        "How long the JVM had run when the hiccup meter began");
    private final Labels gcLabels = Labels.of("cause", "gc");
    private final Labels safepointLabels = Labels.of("cause", "safepoint");
    private final Labels ttspLabels = Labels.of("cause", "ttsp");

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
        final GaugeSnapshot stopped = new GaugeSnapshot(stoppedFamily, List.of(OnePoint.gaugePoint(gcLabels, before.gcNanos() / 1e9),
            OnePoint.gaugePoint(safepointLabels, before.safepointNanos() / 1e9), OnePoint.gaugePoint(ttspLabels, before.ttspNanos() / 1e9)));
        return before.vmMillis() < 0 ? List.of(stopped) : List.of(OnePoint.gauge(beganFamily, before.vmMillis() / 1e3), stopped);
    }
}
