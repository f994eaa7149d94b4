package io.mech.exporter;

import io.mech.probes.locks.BlockedHistogram;
import io.mech.probes.locks.Inflation;
import io.mech.probes.locks.JucContention;
import io.mech.probes.locks.LockKind;
import io.mech.probes.locks.LockSite;
import io.mech.probes.locks.LockSnapshot;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The lock probe's findings: blocked time by kind, lock class and call site, contended
 * java.util.concurrent acquisitions of any length, and monitor inflations by cause. The label
 * sets are as many as the probe's rows, which it caps, so the series stay bounded.
 */
public final class LockFamilies implements MetricFamilies {

    private static final double[] UPPER_BOUNDS_SECONDS = upperBounds();

    private final Supplier<LockSnapshot> snapshots;

    /** @param snapshots the running lock probe's snapshots */
    public LockFamilies(final Supplier<LockSnapshot> snapshots) {
        this.snapshots = snapshots;
    }

    private static double[] upperBounds() {
        final double[] bounds = new double[BlockedHistogram.BUCKETS];
        for (int b = 0; b < bounds.length - 1; b++) {
            bounds[b] = BlockedHistogram.upperBoundNanos(b) / 1e9;
        }
        bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
        return bounds;
    }

    @Override
    public List<MetricSnapshot> collect() {
        final LockSnapshot now = snapshots.get();
        final List<MetricSnapshot> families = new ArrayList<>(5);
        final HistogramSnapshot.Builder blocked = HistogramSnapshot.builder().name("mech_lock_blocked_seconds").unit(Unit.SECONDS)
            .help("Time threads blocked on a lock, by kind, lock class and call site; JFR reports blocks from the "
                + "probe's threshold up");
        for (final LockSite site : now.sites()) {
            blocked.dataPoint(point(Labels.of("kind", kind(site.kind()), "class", site.lockClass(), "site", site.callSite()),
                site.histogram(), site.totalNanos()));
        }
        families.add(blocked.build());
        final GaugeSnapshot.Builder longest = GaugeSnapshot.builder().name("mech_lock_blocked_max_seconds").unit(Unit.SECONDS)
            .help("The longest block on a lock since mech started, by kind, lock class and call site");
        for (final LockSite site : now.sites()) {
            longest.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(Labels.of("kind", kind(site.kind()), "class", site.lockClass(), "site", site.callSite()))
                .value(site.maxNanos() / 1e9).build());
        }
        families.add(longest.build());
        final HistogramSnapshot.Builder contended = HistogramSnapshot.builder().name("mech_lock_contended_acquisition_seconds")
            .unit(Unit.SECONDS)
            .help("Every contended acquisition of a ReentrantLock or ReentrantReadWriteLock, however short, by lock class and mode");
        for (final JucContention c : now.belowThreshold()) {
            contended.dataPoint(point(Labels.of("class", c.lockClass(), "mode", c.mode().isEmpty() ? "exclusive" : c.mode()),
                c.histogram(), c.totalNanos()));
        }
        families.add(contended.build());
        final CounterSnapshot.Builder inflations = CounterSnapshot.builder().name("mech_lock_monitor_inflations")
            .help("Monitors inflated, by the monitor's class and JFR's cause (wait/notify or contention)");
        for (final Inflation i : now.inflations()) {
            inflations.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                .labels(Labels.of("class", i.monitorClass(), "cause", i.cause())).value(i.count()).build());
        }
        families.add(inflations.build());
        if (now.monitorsInUse() >= 0) {
            families.add(GaugeSnapshot.builder().name("mech_lock_monitors_in_use")
                .help("Inflated monitors in use at JFR's last jdk.JavaMonitorStatistics (JDK 25 and later)")
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(now.monitorsInUse()).build()).build());
        }
        return families;
    }

    private static HistogramSnapshot.HistogramDataPointSnapshot point(final Labels labels, final BlockedHistogram histogram,
                                                                      final long totalNanos) {
        return HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels).sum(totalNanos / 1e9)
            .classicHistogramBuckets(ClassicHistogramBuckets.of(UPPER_BOUNDS_SECONDS, histogram.counts())).build();
    }

    private static String kind(final LockKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
