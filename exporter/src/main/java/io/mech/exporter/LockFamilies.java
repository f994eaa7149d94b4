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
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The lock probe's findings: blocked time by kind (virtual threads pinned to their carrier among
 * them, kind {@code pinned}, and parks in java.util.concurrent's other synchronizers, kind
 * {@code juc_wait}), lock class and call site, contended
 * java.util.concurrent acquisitions of any length, and monitor inflations by cause.
 *
 * <p>Series budget: the probe keeps up to 1,000 call sites, which with every bucket came to about
 * 27,000 series and 3.3 MB a scrape. The sites' two families, {@code mech_lock_blocked_seconds}
 * and {@code mech_lock_blocked_max_seconds}, together stay within {@link #SERIES_BUDGET} series.
 * A site takes its buckets plus a sum, a count and a maximum. Buckets wholly below the probe's
 * threshold ({@link LockSnapshot#thresholdNanos()}) hold nothing JFR reports and are left out,
 * so at the default 1 ms a site takes 14 buckets and 17 series, and the budget holds 117 rows.
 * When the sites need more, the heaviest by blocked time keep their own rows and the rest are
 * summed, per kind, into one row labelled {@code class="other",site="other"}: bucket counts,
 * counts and sums add up, the maximum is the largest. One row per kind is kept back for that.
 *
 * <p>Caveat: a site that climbs into the heaviest takes its totals out of {@code other}, which
 * then falls; Prometheus reads that as a counter reset of {@code other}. The rank is by blocked
 * time since mech started, so it settles as the run goes on.
 */
public final class LockFamilies implements MetricFamilies {

    /** The most series the lock sites' families take together. */
    public static final int SERIES_BUDGET = 2_000;
    /** The class and site of the rows that sum the sites beyond the budget. */
    static final String OTHER = "other";

    private static final LockKind[] KINDS = LockKind.values();
    private static final double[] UPPER_BOUNDS_SECONDS = upperBounds();
    private static final Comparator<LockSite> HEAVIEST_FIRST = Comparator.comparingLong(LockSite::totalNanos).reversed();

    private final MetricMetadata blockedFamily = Metadata.histogram("mech_lock_blocked_seconds", Unit.SECONDS,
        "Time threads blocked on a lock, by kind, lock class and call site (kind pinned: virtual threads blocked while "
            + "pinned to their carrier, class the reason; kind juc_wait: parked in a java.util.concurrent synchronizer other "
            + "than a lock, such as a pool's hand-off queue or a semaphore, class the one called); JFR reports blocks from the "
            + "probe's threshold up; sites beyond the series budget are summed per kind into class and site \"other\"");
    private final MetricMetadata longestFamily = Metadata.gauge("mech_lock_blocked_max_seconds", Unit.SECONDS,
        "The longest block on a lock since mech started, by kind, lock class and call site");
    private final MetricMetadata contendedFamily = Metadata.histogram("mech_lock_contended_acquisition_seconds", Unit.SECONDS,
        "Every contended acquisition of a ReentrantLock or ReentrantReadWriteLock, however short, by lock class and mode");
    private final MetricMetadata inflationsFamily = Metadata.counter("mech_lock_monitor_inflations", null,
        "Monitors inflated, by the monitor's class and JFR's cause (wait/notify or contention)");
    private final MetricMetadata monitorsFamily = Metadata.gauge("mech_lock_monitors_in_use", null,
        "Inflated monitors in use at JFR's last jdk.JavaMonitorStatistics (JDK 25 and later)");

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

    /** @return the first bucket that can hold a block at or above the threshold; the ones before hold only shorter blocks */
    static int firstBucket(final long thresholdNanos) {
        int first = 0;
        while (first < BlockedHistogram.BUCKETS - 1 && BlockedHistogram.upperBoundNanos(first) <= thresholdNanos) {
            first++;
        }
        return first;
    }

    @Override
    public List<String> names() {
        return List.of("mech_lock_blocked_seconds", "mech_lock_blocked_max_seconds", "mech_lock_contended_acquisition_seconds",
            "mech_lock_monitor_inflations", "mech_lock_monitors_in_use");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final LockSnapshot now = snapshots.get();
        final List<MetricSnapshot> families = new ArrayList<>(5);
        final int first = firstBucket(now.thresholdNanos());
        final double[] bounds = Arrays.copyOfRange(UPPER_BOUNDS_SECONDS, first, UPPER_BOUNDS_SECONDS.length);
        final List<LockSite> sites = now.sites();
        final List<HistogramSnapshot.HistogramDataPointSnapshot> blocked = new ArrayList<>(sites.size());
        final List<GaugeSnapshot.GaugeDataPointSnapshot> longest = new ArrayList<>(sites.size());
        // per site: its buckets, a sum and a count, and its maximum
        final int rows = Math.max(KINDS.length + 1, SERIES_BUDGET / (bounds.length + 3));
        if (sites.size() <= rows) {
            for (final LockSite site : sites) {
                addSite(blocked, longest, site, bounds, first);
            }
        } else {
            final List<LockSite> heaviest = new ArrayList<>(sites);
            heaviest.sort(HEAVIEST_FIRST);
            final int shown = rows - KINDS.length;
            for (final LockSite site : heaviest.subList(0, shown)) {
                addSite(blocked, longest, site, bounds, first);
            }
            final Other[] others = new Other[KINDS.length];
            for (final LockSite site : heaviest.subList(shown, heaviest.size())) {
                final int kind = site.kind().ordinal();
                if (others[kind] == null) {
                    others[kind] = new Other(bounds.length);
                }
                others[kind].add(site, first);
            }
            for (final LockKind kind : KINDS) {
                final Other other = others[kind.ordinal()];
                if (other != null) {
                    final Labels labels = Labels.of("kind", kind(kind), "class", OTHER, "site", OTHER);
                    blocked.add(point(labels, bounds, other.counts, other.totalNanos));
                    longest.add(OnePoint.gaugePoint(labels, other.maxNanos / 1e9));
                }
            }
        }
        families.add(new HistogramSnapshot(blockedFamily, blocked));
        families.add(new GaugeSnapshot(longestFamily, longest));
        final List<HistogramSnapshot.HistogramDataPointSnapshot> contended = new ArrayList<>(now.belowThreshold().size());
        for (final JucContention c : now.belowThreshold()) {
            contended.add(point(Labels.of("class", c.lockClass(), "mode", c.mode().isEmpty() ? "exclusive" : c.mode()),
                UPPER_BOUNDS_SECONDS, c.histogram().counts(), c.totalNanos()));
        }
        families.add(new HistogramSnapshot(contendedFamily, contended));
        final List<CounterSnapshot.CounterDataPointSnapshot> inflations = new ArrayList<>(now.inflations().size());
        for (final Inflation i : now.inflations()) {
            inflations.add(OnePoint.counterPoint(Labels.of("class", i.monitorClass(), "cause", LabelWords.of(i.cause())), i.count()));
        }
        families.add(new CounterSnapshot(inflationsFamily, inflations));
        if (now.monitorsInUse() >= 0) {
            families.add(OnePoint.gauge(monitorsFamily, now.monitorsInUse()));
        }
        return families;
    }

    private static void addSite(final List<HistogramSnapshot.HistogramDataPointSnapshot> blocked,
                                final List<GaugeSnapshot.GaugeDataPointSnapshot> longest, final LockSite site, final double[] bounds,
                                final int first) {
        final Labels labels = Labels.of("kind", kind(site.kind()), "class", site.lockClass(), "site", site.callSite());
        final long[] counts = new long[bounds.length];
        fold(site.histogram(), first, counts);
        blocked.add(point(labels, bounds, counts, site.totalNanos()));
        longest.add(OnePoint.gaugePoint(labels, site.maxNanos() / 1e9));
    }

    /**
     * Adds a histogram's counts from bucket {@code first} on into {@code into}; the buckets before
     * go into the first, so cumulative counts and the total stay exact even if some block below
     * the threshold was counted.
     */
    private static void fold(final BlockedHistogram histogram, final int first, final long[] into) {
        for (int b = 0; b < BlockedHistogram.BUCKETS; b++) {
            into[Math.max(0, b - first)] += histogram.count(b);
        }
    }

    private static HistogramSnapshot.HistogramDataPointSnapshot point(final Labels labels, final double[] bounds, final long[] counts,
                                                                      final long totalNanos) {
        return HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels).sum(totalNanos / 1e9)
            .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts)).build();
    }

    /** The sites of one kind beyond the budget, added up. */
    private static final class Other {
        final long[] counts;
        long totalNanos;
        long maxNanos;

        Other(final int buckets) {
            counts = new long[buckets];
        }

        void add(final LockSite site, final int first) {
            fold(site.histogram(), first, counts);
            totalNanos += site.totalNanos();
            maxNanos = Math.max(maxNanos, site.maxNanos());
        }
    }

    private static String kind(final LockKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
