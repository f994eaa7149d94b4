package io.mech.exporter;

import io.mech.hiccup.cause.AllocationStalls;
import io.mech.hiccup.cause.Cause;
import io.mech.hiccup.cause.CauseTotals;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.Supplier;

/**
 * Stall time and stall counts of the host JVM by cause ({@code gc}, {@code safepoint}, {@code ttsp},
 * {@code mech}, the kernel's {@code throttled}, {@code runqueue}, {@code steal}, {@code paging} and
 * {@code frozen}, {@code os}, {@code unknown}), and the time the host's threads waited for memory
 * (ZGC's allocation stalls, once JFR records).
 */
public final class CauseFamilies implements MetricFamilies {

    private final Supplier<CauseTotals> totals;

    /** @param totals the running attribution's totals */
    public CauseFamilies(final Supplier<CauseTotals> totals) {
        this.totals = totals;
    }

    @Override
    public List<String> names() {
        return List.of("mech_hiccup_cause_seconds", "mech_hiccup_cause_stalls", "mech_allocation_stall_seconds",
            "mech_allocation_stalls");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final CauseTotals now = totals.get();
        final CounterSnapshot.Builder seconds = CounterSnapshot.builder().name("mech_hiccup_cause_seconds").unit(Unit.SECONDS)
            .help("Stall time of the host JVM by the cause that covers most of each stall, from HotSpot's counters, JFR and the kernel's "
                + "figures; unknown where none covered it");
        final CounterSnapshot.Builder stalls = CounterSnapshot.builder().name("mech_hiccup_cause_stalls")
            .help("Stalls of the host JVM by the cause that covers most of each");
        for (final Cause cause : Cause.values()) {
            final Labels labels = Labels.of("cause", cause.tag());
            seconds.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(now.nanos(cause) / 1e9).build());
            stalls.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(now.count(cause)).build());
        }
        final AllocationStalls memory = now.allocationStalls();
        return List.of(seconds.build(), stalls.build(),
            CounterSnapshot.builder().name("mech_allocation_stall_seconds").unit(Unit.SECONDS)
                .help("Time the host's threads waited for memory outside safepoints (ZGC allocation stalls of 1 ms or more), "
                    + "thread by thread, since JFR began recording")
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(memory.nanos() / 1e9).build()).build(),
            CounterSnapshot.builder().name("mech_allocation_stalls")
                .help("The host threads' waits for memory outside safepoints (ZGC allocation stalls of 1 ms or more)")
                .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(memory.count()).build()).build());
    }
}
