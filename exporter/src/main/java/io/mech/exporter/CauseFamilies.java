package io.mech.exporter;

import io.mech.hiccup.cause.Cause;
import io.mech.hiccup.cause.CauseTotals;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.Supplier;

/** Stall time and stall counts of the host JVM by cause: {@code gc}, {@code safepoint}, {@code mech}, {@code os}. */
public final class CauseFamilies implements MetricFamilies {

    private final Supplier<CauseTotals> totals;

    /** @param totals the running attribution's totals */
    public CauseFamilies(final Supplier<CauseTotals> totals) {
        this.totals = totals;
    }

    @Override
    public List<String> names() {
        return List.of("mech_hiccup_cause_seconds", "mech_hiccup_cause_stalls");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final CauseTotals now = totals.get();
        final CounterSnapshot.Builder seconds = CounterSnapshot.builder().name("mech_hiccup_cause_seconds").unit(Unit.SECONDS)
            .help("Stall time of the host JVM by cause, split by overlap with JFR's GC pauses and safepoint operations");
        final CounterSnapshot.Builder stalls = CounterSnapshot.builder().name("mech_hiccup_cause_stalls")
            .help("Stalls of the host JVM by the cause that covers most of each");
        for (final Cause cause : Cause.values()) {
            final Labels labels = Labels.of("cause", cause.tag());
            seconds.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(now.nanos(cause) / 1e9).build());
            stalls.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(now.count(cause)).build());
        }
        return List.of(seconds.build(), stalls.build());
    }
}
