package io.mech.exporter;

import io.mech.hiccup.HiccupSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * The hiccup recorder's families, one series per meter: {@code jvm="host"}; with a control JVM,
 * {@code jvm="control"}; with the virtual-thread meter, {@code jvm="host",thread="virtual"}. Every
 * distribution covers the time since recording began, so the
 * histogram and the HdrHistogram quantiles of one scrape describe the same window.
 *
 * <p>The distribution changes only when an interval closes, so its buckets and quantiles are
 * computed once per distribution (told by the snapshot's histogram identity, see
 * {@link HiccupSnapshot#histogram()}), in one walk ({@link HistogramWalk}), and kept per JVM;
 * concurrent scrapes may both compute a new one, each walking with an iterator of its own, and
 * either result is the same.
 */
public final class HiccupFamilies implements MetricFamilies {

    /** The quantiles HdrHistogram computes, 1.0 being the maximum. */
    static final double[] QUANTILES = {0.5, 0.9, 0.99, 0.999, 1.0};

    private final MetricMetadata histogramFamily = Metadata.histogram("mech_hiccup_seconds", Unit.SECONDS,
        "Hiccups of the JVM since recording began: how much longer than the shortest round the recorder "
            + "thread took to wake, corrected for coordinated omission");
    private final MetricMetadata hdrFamily = Metadata.summary("mech_hiccup_hdr_seconds", Unit.SECONDS,
        "Hiccup quantiles since recording began, computed by HdrHistogram; quantile 1 is the maximum");
    private final MetricMetadata intervalMaxFamily = Metadata.gauge("mech_hiccup_interval_max_seconds", Unit.SECONDS,
        "Longest hiccup of the last closed interval");
    private final MetricMetadata stallTimeFamily = Metadata.counter("mech_hiccup_stall_seconds", Unit.SECONDS,
        "Total time the JVM stood still in hiccups at least hiccup.attribute-above long, uncorrected");
    private final MetricMetadata stallsFamily = Metadata.counter("mech_hiccup_stalls", null, "Hiccups at least hiccup.attribute-above long");

    private final Map<Labels, Supplier<HiccupSnapshot>> meters;
    private final boolean classic;
    private final Map<Labels, Distribution> distributions = new ConcurrentHashMap<>();

    /** The data points of one distribution: immutable, like the client_java snapshots it holds. */
    private record Distribution(Histogram source, HistogramSnapshot.HistogramDataPointSnapshot histogram,
                                SummarySnapshot.SummaryDataPointSnapshot quantiles) {
    }

    /**
     * @param meters  a snapshot supplier per series, by its labels; a supplier may return null when it has nothing yet
     * @param classic true for classic buckets instead of native ones
     */
    public HiccupFamilies(final Map<Labels, Supplier<HiccupSnapshot>> meters, final boolean classic) {
        this.meters = Map.copyOf(meters);
        this.classic = classic;
    }

    @Override
    public List<String> names() {
        return List.of("mech_hiccup_seconds", "mech_hiccup_hdr_seconds", "mech_hiccup_interval_max_seconds", "mech_hiccup_stall_seconds",
            "mech_hiccup_stalls");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final List<HistogramSnapshot.HistogramDataPointSnapshot> histogram = new ArrayList<>(meters.size());
        final List<SummarySnapshot.SummaryDataPointSnapshot> quantiles = new ArrayList<>(meters.size());
        final List<GaugeSnapshot.GaugeDataPointSnapshot> intervalMax = new ArrayList<>(meters.size());
        final List<CounterSnapshot.CounterDataPointSnapshot> stallTime = new ArrayList<>(meters.size());
        final List<CounterSnapshot.CounterDataPointSnapshot> stalls = new ArrayList<>(meters.size());
        for (final Map.Entry<Labels, Supplier<HiccupSnapshot>> meter : meters.entrySet()) {
            final HiccupSnapshot snapshot = meter.getValue().get();
            if (snapshot == null) {
                continue;
            }
            final Labels labels = meter.getKey();
            final Distribution distribution = distribution(labels, snapshot.histogram());
            histogram.add(distribution.histogram());
            quantiles.add(distribution.quantiles());
            intervalMax.add(OnePoint.gaugePoint(labels, snapshot.lastIntervalMaxNanos() / 1e9));
            if (snapshot.stalls() >= 0) {
                stallTime.add(OnePoint.counterPoint(labels, snapshot.stallNanos() / 1e9));
                stalls.add(OnePoint.counterPoint(labels, snapshot.stalls()));
            }
        }
        return List.of(new HistogramSnapshot(histogramFamily, histogram), new SummarySnapshot(hdrFamily, quantiles),
            new GaugeSnapshot(intervalMaxFamily, intervalMax), new CounterSnapshot(stallTimeFamily, stallTime),
            new CounterSnapshot(stallsFamily, stalls));
    }

    private Distribution distribution(final Labels labels, final Histogram nanos) {
        final Distribution known = distributions.get(labels);
        if (known != null && known.source() == nanos) {
            return known;
        }
        final HistogramWalk.Walked walked = HistogramWalk.walk(nanos, QUANTILES, classic);
        final List<Quantile> q = new ArrayList<>(QUANTILES.length);
        for (int i = 0; i < QUANTILES.length; i++) {
            q.add(new Quantile(QUANTILES[i], walked.quantileSeconds()[i]));
        }
        final Distribution computed = new Distribution(nanos, histogramPoint(walked, labels),
            SummarySnapshot.SummaryDataPointSnapshot.builder().labels(labels)
                .count(nanos.getTotalCount()).sum(walked.sumSeconds()).quantiles(Quantiles.of(q)).build());
        distributions.put(labels, computed);
        return computed;
    }

    private HistogramSnapshot.HistogramDataPointSnapshot histogramPoint(final HistogramWalk.Walked walked, final Labels labels) {
        final HistogramSnapshot.HistogramDataPointSnapshot.Builder point =
            HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels).sum(walked.sumSeconds());
        if (classic) {
            return point.classicHistogramBuckets(walked.classicBuckets()).build();
        }
        final NativeBuckets.Mapped mapped = walked.nativeBuckets();
        return point.nativeSchema(NativeBuckets.SCHEMA).nativeZeroThreshold(NativeBuckets.ZERO_THRESHOLD)
            .nativeZeroCount(mapped.zeroCount()).nativeBucketsForPositiveValues(mapped.buckets()).build();
    }
}
