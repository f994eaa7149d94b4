package io.mech.exporter;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.expositionformats.TextFormatUtil;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SnapshotEscaper;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;

/**
 * Prometheus's protobuf exposition format: each family a length-delimited
 * {@code io.prometheus.client.MetricFamily}, the one format that carries native histograms.
 *
 * <p>Why mech writes it itself: client_java writes it through a protobuf runtime, and on JDK 24
 * and later that runtime's first use prints warnings about {@code sun.misc.Unsafe} on the host's
 * stderr. No protobuf switch keeps it off Unsafe, and the JDK's own switch is a command-line option
 * that an agent cannot set. So mech.jar holds no protobuf runtime, and this class writes the
 * wire format directly into a {@link ProtobufBuffer}.
 *
 * <p>It maps snapshots as client_java 1.8.0's protobuf writer does, field for field and in the
 * same order: families of the same name merged, names and labels escaped by the scheme the
 * scraper asked for, counters named with {@code _total} and info families with {@code _info} (both
 * typed as client_java types them), a state set as one gauge series per state, a histogram with
 * native buckets, classic buckets or both. One difference: a family left with no series (a summary
 * whose every point is empty) is left out, where client_java sends an empty message.
 *
 * <p>Holds nothing: any number of threads may write at once, each into its own buffer.
 */
final class ProtobufExposition {

    /** The content type of a response in this format, as client_java sends it. */
    static final String CONTENT_TYPE = PrometheusProtobufWriter.CONTENT_TYPE;

    /** The largest gap between native buckets that is filled with empty buckets rather than ending the span, as client_java does. */
    private static final int FILLED_GAP = 2;

    private ProtobufExposition() {
    }

    /**
     * Whether a scraper's Accept header asks for this format: client_java's own test, so that the
     * negotiation is what it was when client_java answered.
     *
     * @param accept the request's Accept header, or null
     */
    static boolean accepts(final String accept) {
        return accept != null && accept.contains("application/vnd.google.protobuf")
            && accept.contains("proto=io.prometheus.client.MetricFamily");
    }

    /**
     * Appends every family that has a series, each as a length-delimited MetricFamily.
     *
     * @param snapshots the families, as the registry collected them
     * @param scheme    how names and label names are escaped, from the Accept header
     * @param out       where the families go
     */
    static void write(final MetricSnapshots snapshots, final EscapingScheme scheme, final ProtobufBuffer out) {
        final MetricSnapshots families = sharesAName(snapshots) ? TextFormatUtil.mergeDuplicates(snapshots) : snapshots;
        for (int i = 0; i < families.size(); i++) {
            final MetricSnapshot collected = families.get(i);
            final MetricSnapshot snapshot = SnapshotEscaper.escapeMetricSnapshot(collected, scheme);
            if (!snapshot.getDataPoints().isEmpty()) {
                family(snapshot, collected.getMetadata().getOriginalName(), scheme, out);
            }
        }
    }

    /**
     * Whether two families share a name and must be merged. Merging builds a map and a new list of
     * every family, at every scrape; the families are sorted by that name, so telling takes one
     * look at each neighbour and builds nothing.
     */
    private static boolean sharesAName(final MetricSnapshots snapshots) {
        for (int i = 1; i < snapshots.size(); i++) {
            if (snapshots.get(i - 1).getMetadata().getPrometheusName().equals(snapshots.get(i).getMetadata().getPrometheusName())) {
                return true;
            }
        }
        return false;
    }

    private static void family(final MetricSnapshot snapshot, final String originalName, final EscapingScheme scheme,
                               final ProtobufBuffer out) {
        final int family = out.begin(0);
        final MetricMetadata metadata = snapshot.getMetadata();
        int series = 0;
        if (snapshot instanceof CounterSnapshot counters) {
            header(out, metadata, scheme, "_total", MetricsProto.Type.COUNTER);
            for (final CounterSnapshot.CounterDataPointSnapshot point : counters.getDataPoints()) {
                counter(out, point, scheme);
                series++;
            }
        } else if (snapshot instanceof GaugeSnapshot gauges) {
            header(out, SnapshotEscaper.getLegacyGaugeName(metadata, originalName, scheme), "", metadata,
                MetricsProto.Type.GAUGE);
            for (final GaugeSnapshot.GaugeDataPointSnapshot point : gauges.getDataPoints()) {
                gauge(out, point, point.getValue(), null, null, scheme);
                series++;
            }
        } else if (snapshot instanceof HistogramSnapshot histograms) {
            header(out, metadata, scheme, null,
                histograms.isGaugeHistogram() ? MetricsProto.Type.GAUGE_HISTOGRAM : MetricsProto.Type.HISTOGRAM);
            for (final HistogramSnapshot.HistogramDataPointSnapshot point : histograms.getDataPoints()) {
                histogram(out, point, scheme);
                series++;
            }
        } else if (snapshot instanceof SummarySnapshot summaries) {
            header(out, metadata, scheme, null, MetricsProto.Type.SUMMARY);
            for (final SummarySnapshot.SummaryDataPointSnapshot point : summaries.getDataPoints()) {
                if (point.hasCount() || point.hasSum() || point.getQuantiles().size() > 0) {
                    summary(out, point, scheme);
                    series++;
                }
            }
        } else if (snapshot instanceof InfoSnapshot infos) {
            header(out, metadata, scheme, "_info", MetricsProto.Type.GAUGE);
            for (final InfoSnapshot.InfoDataPointSnapshot point : infos.getDataPoints()) {
                gauge(out, point, 1, null, null, scheme);
                series++;
            }
        } else if (snapshot instanceof StateSetSnapshot stateSets) {
            header(out, metadata, scheme, null, MetricsProto.Type.GAUGE);
            for (final StateSetSnapshot.StateSetDataPointSnapshot point : stateSets.getDataPoints()) {
                for (int i = 0; i < point.size(); i++) {
                    gauge(out, point, point.isTrue(i) ? 1 : 0, metadata.getPrometheusName(), point.getName(i), scheme);
                    series++;
                }
            }
        } else if (snapshot instanceof UnknownSnapshot unknowns) {
            header(out, metadata, scheme, null, MetricsProto.Type.UNTYPED);
            for (final UnknownSnapshot.UnknownDataPointSnapshot point : unknowns.getDataPoints()) {
                untyped(out, point, scheme);
                series++;
            }
        }
        if (series == 0) {
            out.discard(family);
        } else {
            out.end(family);
        }
    }

    /** The family's name as client_java forms it: a suffix is added unless the exposed base name already ends with it. */
    private static void header(final ProtobufBuffer out, final MetricMetadata metadata, final EscapingScheme scheme,
                               final String suffix, final int type) {
        if (suffix == null) {
            header(out, SnapshotEscaper.getMetadataName(metadata, scheme), "", metadata, type);
        } else {
            final String base = SnapshotEscaper.getExpositionBaseMetadataName(metadata, scheme);
            if (base.endsWith(suffix)) {
                header(out, base, "", metadata, type);
            } else {
                header(out, SnapshotEscaper.getMetadataName(metadata, scheme), suffix, metadata, type);
            }
        }
    }

    private static void header(final ProtobufBuffer out, final String name, final String suffix,
                               final MetricMetadata metadata, final int type) {
        out.stringField(MetricsProto.Family.NAME, name, suffix);
        if (metadata.getHelp() != null) {
            out.stringField(MetricsProto.Family.HELP, metadata.getHelp());
        }
        out.varintField(MetricsProto.Family.TYPE, type);
    }

    private static void counter(final ProtobufBuffer out, final CounterSnapshot.CounterDataPointSnapshot point,
                                final EscapingScheme scheme) {
        final int metric = out.begin(MetricsProto.Family.METRIC);
        labels(out, MetricsProto.Metric.LABEL, point.getLabels(), scheme);
        final int counter = out.begin(MetricsProto.Metric.COUNTER);
        out.doubleField(MetricsProto.Counter.VALUE, point.getValue());
        if (point.getExemplar() != null) {
            exemplar(out, MetricsProto.Counter.EXEMPLAR, point.getExemplar(), scheme);
        }
        if (point.hasCreatedTimestamp()) {
            timestamp(out, MetricsProto.Counter.CREATED_TIMESTAMP, point.getCreatedTimestampMillis());
        }
        out.end(counter);
        scrapeTimestamp(out, point);
        out.end(metric);
    }

    /**
     * A gauge series: of a gauge, an info family (always 1) or one state of a state set, which
     * adds a label named after the family for the state.
     */
    private static void gauge(final ProtobufBuffer out, final DataPointSnapshot point, final double value,
                              final String stateLabel, final String state, final EscapingScheme scheme) {
        final int metric = out.begin(MetricsProto.Family.METRIC);
        labels(out, MetricsProto.Metric.LABEL, point.getLabels(), scheme);
        if (stateLabel != null) {
            label(out, MetricsProto.Metric.LABEL, stateLabel, state);
        }
        final int gauge = out.begin(MetricsProto.Metric.GAUGE);
        out.doubleField(MetricsProto.Value.VALUE, value);
        out.end(gauge);
        scrapeTimestamp(out, point);
        out.end(metric);
    }

    /** Unlike every other kind, client_java sends an untyped series without its scrape timestamp. */
    private static void untyped(final ProtobufBuffer out, final UnknownSnapshot.UnknownDataPointSnapshot point,
                                final EscapingScheme scheme) {
        final int metric = out.begin(MetricsProto.Family.METRIC);
        labels(out, MetricsProto.Metric.LABEL, point.getLabels(), scheme);
        final int untyped = out.begin(MetricsProto.Metric.UNTYPED);
        out.doubleField(MetricsProto.Value.VALUE, point.getValue());
        out.end(untyped);
        out.end(metric);
    }

    private static void summary(final ProtobufBuffer out, final SummarySnapshot.SummaryDataPointSnapshot point,
                                final EscapingScheme scheme) {
        final int metric = out.begin(MetricsProto.Family.METRIC);
        labels(out, MetricsProto.Metric.LABEL, point.getLabels(), scheme);
        final int summary = out.begin(MetricsProto.Metric.SUMMARY);
        if (point.hasCount()) {
            out.varintField(MetricsProto.Summary.SAMPLE_COUNT, point.getCount());
        }
        if (point.hasSum()) {
            out.doubleField(MetricsProto.Summary.SAMPLE_SUM, point.getSum());
        }
        final Quantiles quantiles = point.getQuantiles();
        for (int i = 0; i < quantiles.size(); i++) {
            final int quantile = out.begin(MetricsProto.Summary.QUANTILE);
            out.doubleField(MetricsProto.Quantile.QUANTILE, quantiles.get(i).getQuantile());
            out.doubleField(MetricsProto.Quantile.VALUE, quantiles.get(i).getValue());
            out.end(quantile);
        }
        out.end(summary);
        scrapeTimestamp(out, point);
        out.end(metric);
    }

    private static void histogram(final ProtobufBuffer out, final HistogramSnapshot.HistogramDataPointSnapshot point,
                                  final EscapingScheme scheme) {
        final int metric = out.begin(MetricsProto.Family.METRIC);
        labels(out, MetricsProto.Metric.LABEL, point.getLabels(), scheme);
        scrapeTimestamp(out, point);
        final int histogram = out.begin(MetricsProto.Metric.HISTOGRAM);
        if (point.hasCount()) {
            out.varintField(MetricsProto.Histogram.SAMPLE_COUNT, point.getCount());
        }
        if (point.hasSum()) {
            out.doubleField(MetricsProto.Histogram.SAMPLE_SUM, point.getSum());
        }
        if (point.hasClassicHistogramData()) {
            classicBuckets(out, point, scheme);
        } else if (point.hasNativeHistogramData() && point.getExemplars().getLatest() != null) {
            // Native buckets have no place for an exemplar: client_java puts the latest on a lone +Inf bucket.
            final int bucket = out.begin(MetricsProto.Histogram.BUCKET);
            out.varintField(MetricsProto.Bucket.CUMULATIVE_COUNT, nativeCount(point));
            out.doubleField(MetricsProto.Bucket.UPPER_BOUND, Double.POSITIVE_INFINITY);
            exemplar(out, MetricsProto.Bucket.EXEMPLAR, point.getExemplars().getLatest(), scheme);
            out.end(bucket);
        }
        if (point.hasNativeHistogramData()) {
            out.sintField(MetricsProto.Histogram.SCHEMA, point.getNativeSchema());
            out.doubleField(MetricsProto.Histogram.ZERO_THRESHOLD, point.getNativeZeroThreshold());
            out.varintField(MetricsProto.Histogram.ZERO_COUNT, point.getNativeZeroCount());
            final NativeHistogramBuckets negative = point.getNativeBucketsForNegativeValues();
            spans(out, MetricsProto.Histogram.NEGATIVE_SPAN, negative);
            deltas(out, MetricsProto.Histogram.NEGATIVE_DELTA, negative);
            final NativeHistogramBuckets positive = point.getNativeBucketsForPositiveValues();
            spans(out, MetricsProto.Histogram.POSITIVE_SPAN, positive);
            deltas(out, MetricsProto.Histogram.POSITIVE_DELTA, positive);
        }
        out.end(histogram);
        out.end(metric);
    }

    /** Cumulative counts, each bucket with the exemplar that falls in it, if any. */
    private static void classicBuckets(final ProtobufBuffer out, final HistogramSnapshot.HistogramDataPointSnapshot point,
                                       final EscapingScheme scheme) {
        final ClassicHistogramBuckets buckets = point.getClassicBuckets();
        double lowerBound = Double.NEGATIVE_INFINITY;
        long cumulative = 0;
        for (int i = 0; i < buckets.size(); i++) {
            cumulative += buckets.getCount(i);
            final double upperBound = buckets.getUpperBound(i);
            final int bucket = out.begin(MetricsProto.Histogram.BUCKET);
            out.varintField(MetricsProto.Bucket.CUMULATIVE_COUNT, cumulative);
            out.doubleField(MetricsProto.Bucket.UPPER_BOUND, upperBound);
            final Exemplar exemplar = point.getExemplars().get(lowerBound, upperBound);
            if (exemplar != null) {
                exemplar(out, MetricsProto.Bucket.EXEMPLAR, exemplar, scheme);
            }
            out.end(bucket);
            lowerBound = upperBound;
        }
    }

    private static long nativeCount(final HistogramSnapshot.HistogramDataPointSnapshot point) {
        if (point.hasCount()) {
            return point.getCount();
        }
        long count = point.getNativeZeroCount();
        final NativeHistogramBuckets positive = point.getNativeBucketsForPositiveValues();
        for (int i = 0; i < positive.size(); i++) {
            count += positive.getCount(i);
        }
        final NativeHistogramBuckets negative = point.getNativeBucketsForNegativeValues();
        for (int i = 0; i < negative.size(); i++) {
            count += negative.getCount(i);
        }
        return count;
    }

    /**
     * The spans of native buckets: a gap of up to {@link #FILLED_GAP} empty buckets stays inside
     * a span (as empty buckets, see {@link #deltas}), a wider one starts a new span whose offset is
     * the gap. The first span's offset is its first bucket's index.
     */
    private static void spans(final ProtobufBuffer out, final int field, final NativeHistogramBuckets buckets) {
        if (buckets.size() == 0) {
            return;
        }
        int offset = buckets.getBucketIndex(0);
        int length = 0;
        int previous = offset - 1;
        for (int i = 0; i < buckets.size(); i++) {
            final int index = buckets.getBucketIndex(i);
            final int gap = index - previous - 1;
            if (gap > FILLED_GAP) {
                span(out, field, offset, length);
                offset = gap;
                length = 0;
            } else {
                length += gap;
            }
            length++;
            previous = index;
        }
        span(out, field, offset, length);
    }

    private static void span(final ProtobufBuffer out, final int field, final int offset, final int length) {
        final int span = out.begin(field);
        out.sintField(MetricsProto.Span.OFFSET, offset);
        out.varintField(MetricsProto.Span.LENGTH, length);
        out.end(span);
    }

    /** Each bucket's count less the previous bucket's, across spans, the empty buckets inside a span included. */
    private static void deltas(final ProtobufBuffer out, final int field, final NativeHistogramBuckets buckets) {
        long previousCount = 0;
        int previous = buckets.size() == 0 ? 0 : buckets.getBucketIndex(0) - 1;
        for (int i = 0; i < buckets.size(); i++) {
            final int index = buckets.getBucketIndex(i);
            final int gap = index - previous - 1;
            if (gap <= FILLED_GAP) {
                for (int empty = 0; empty < gap; empty++) {
                    out.sintField(field, -previousCount);
                    previousCount = 0;
                }
            }
            out.sintField(field, buckets.getCount(i) - previousCount);
            previousCount = buckets.getCount(i);
            previous = index;
        }
    }

    private static void exemplar(final ProtobufBuffer out, final int field, final Exemplar exemplar,
                                 final EscapingScheme scheme) {
        final int message = out.begin(field);
        labels(out, MetricsProto.Exemplar.LABEL, exemplar.getLabels(), scheme);
        out.doubleField(MetricsProto.Exemplar.VALUE, exemplar.getValue());
        if (exemplar.hasTimestamp()) {
            timestamp(out, MetricsProto.Exemplar.TIMESTAMP, exemplar.getTimestampMillis());
        }
        out.end(message);
    }

    private static void labels(final ProtobufBuffer out, final int field, final Labels labels,
                               final EscapingScheme scheme) {
        for (int i = 0; i < labels.size(); i++) {
            label(out, field, SnapshotEscaper.getSnapshotLabelName(labels, i, scheme), labels.getValue(i));
        }
    }

    private static void label(final ProtobufBuffer out, final int field, final String name, final String value) {
        final int label = out.begin(field);
        out.stringField(MetricsProto.Label.NAME, name);
        out.stringField(MetricsProto.Label.VALUE, value);
        out.end(label);
    }

    /** A {@code google.protobuf.Timestamp}, whose nanoseconds are never negative. */
    private static void timestamp(final ProtobufBuffer out, final int field, final long millis) {
        final int timestamp = out.begin(field);
        final long seconds = Math.floorDiv(millis, 1000L);
        final long nanos = Math.floorMod(millis, 1000L) * 1_000_000L;
        if (seconds != 0) {
            out.varintField(MetricsProto.Timestamp.SECONDS, seconds);
        }
        if (nanos != 0) {
            out.varintField(MetricsProto.Timestamp.NANOS, nanos);
        }
        out.end(timestamp);
    }

    private static void scrapeTimestamp(final ProtobufBuffer out, final DataPointSnapshot point) {
        if (point.hasScrapeTimestamp()) {
            out.varintField(MetricsProto.Metric.TIMESTAMP_MS, point.getScrapeTimestampMillis());
        }
    }
}
