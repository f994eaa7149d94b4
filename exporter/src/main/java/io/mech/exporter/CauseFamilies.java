package io.mech.exporter;

import io.mech.hiccup.cause.AllocationStalls;
import io.mech.hiccup.cause.Cause;
import io.mech.hiccup.cause.CauseTotals;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Stall time and stall counts of the host JVM by cause ({@code gc}, {@code safepoint}, {@code ttsp},
 * {@code mech}, the kernel's {@code throttled}, {@code runqueue}, {@code steal}, {@code paging} and
 * {@code frozen}, {@code os}, {@code unknown}), and the time the host's threads waited for memory
 * (ZGC's allocation stalls, once JFR records).
 */
public final class CauseFamilies implements MetricFamilies {

    private final MetricMetadata secondsFamily = Metadata.counter("mech_hiccup_cause_seconds", Unit.SECONDS,
        "Stall time of the host JVM by the cause that covers most of each stall, from HotSpot's counters, JFR and the kernel's "
            + "figures; unknown where none covered it");
    private final MetricMetadata stallsFamily = Metadata.counter("mech_hiccup_cause_stalls", null,
        "Stalls of the host JVM by the cause that covers most of each");
    private final MetricMetadata allocationSecondsFamily = Metadata.counter("mech_allocation_stall_seconds", Unit.SECONDS,
        "Time the host's threads waited for memory outside safepoints (ZGC allocation stalls of 1 ms or more), "
            + "thread by thread, since JFR began recording");
    private final MetricMetadata allocationStallsFamily = Metadata.counter("mech_allocation_stalls", null,
        "The host threads' waits for memory outside safepoints (ZGC allocation stalls of 1 ms or more)");
    private final Cause[] causes = Cause.values();
    /** Each cause's label, by the cause's ordinal. */
    private final Labels[] causeLabels = new Labels[causes.length];

    private final Supplier<CauseTotals> totals;

    /** @param totals the running attribution's totals */
    public CauseFamilies(final Supplier<CauseTotals> totals) {
        this.totals = totals;
        for (final Cause cause : causes) {
            causeLabels[cause.ordinal()] = Labels.of("cause", cause.tag());
        }
    }

    @Override
    public List<String> names() {
        return List.of("mech_hiccup_cause_seconds", "mech_hiccup_cause_stalls", "mech_allocation_stall_seconds",
            "mech_allocation_stalls");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final CauseTotals now = totals.get();
        final List<CounterSnapshot.CounterDataPointSnapshot> seconds = new ArrayList<>(causes.length);
        final List<CounterSnapshot.CounterDataPointSnapshot> stalls = new ArrayList<>(causes.length);
        for (final Cause cause : causes) {
            seconds.add(OnePoint.counterPoint(causeLabels[cause.ordinal()], now.nanos(cause) / 1e9));
            stalls.add(OnePoint.counterPoint(causeLabels[cause.ordinal()], now.count(cause)));
        }
        final AllocationStalls memory = now.allocationStalls();
        return List.of(new CounterSnapshot(secondsFamily, seconds), new CounterSnapshot(stallsFamily, stalls),
            OnePoint.counter(allocationSecondsFamily, memory.nanos() / 1e9), OnePoint.counter(allocationStallsFamily, memory.count()));
    }
}
