package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Quantile;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.StateSetSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * mech's protobuf writer, decoded field by field. The field numbers here are written out from
 * prometheus/client_model's metrics.proto, not taken from {@link MetricsProto}, so that a wrong
 * number there fails here.
 */
class ProtobufExpositionTest {

    private static List<ProtobufDecoder.Message> encode(final MetricSnapshot... families) throws IOException {
        final ProtobufBuffer buffer = new ProtobufBuffer(16);
        ProtobufExposition.write(new MetricSnapshots(families), EscapingScheme.ALLOW_UTF8, buffer);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        buffer.writeTo(out);
        return ProtobufDecoder.delimited(out.toByteArray());
    }

    private static ProtobufDecoder.Message only(final List<ProtobufDecoder.Message> families) {
        assertEquals(1, families.size());
        return families.get(0);
    }

    /** A Metric's labels (field 1, LabelPair name 1 value 2) in wire order. */
    private static Map<String, String> labels(final ProtobufDecoder.Message metric) {
        final Map<String, String> labels = new LinkedHashMap<>();
        for (final ProtobufDecoder.Message pair : metric.messages(1)) {
            labels.put(pair.string(1), pair.string(2));
        }
        return labels;
    }

    @Test
    void counterCarriesTotalItsLabelsAndCreatedTimestamp() throws IOException {
        final ProtobufDecoder.Message family = only(encode(CounterSnapshot.builder().name("mech_requests").help("Requests served")
            .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("path", "/a", "code", "200"))
                .value(42.5).createdTimestampMillis(1_700_000_000_123L).scrapeTimestampMillis(1_700_000_005_000L).build())
            .build()));
        assertEquals("mech_requests_total", family.string(1));
        assertEquals("Requests served", family.string(2));
        assertTrue(family.has(3), "the type is sent even as COUNTER, enum value 0");
        assertEquals(0, family.varint(3));
        final ProtobufDecoder.Message metric = only(family.messages(4));
        assertEquals(Map.of("code", "200", "path", "/a"), labels(metric));
        assertEquals(List.of("code", "path"), new ArrayList<>(labels(metric).keySet()), "labels sorted by name");
        assertFalse(metric.has(2), "no gauge");
        final ProtobufDecoder.Message counter = metric.message(3);
        assertEquals(42.5, counter.dbl(1));
        final ProtobufDecoder.Message created = counter.message(3);
        assertEquals(1_700_000_000L, created.varint(1), "seconds");
        assertEquals(123_000_000L, created.varint(2), "nanos");
        assertEquals(1_700_000_005_000L, metric.varint(6), "timestamp_ms");
    }

    @Test
    void nativeHistogramHasSpansDeltasZeroBucketAndNegativeBuckets() throws IOException {
        final Map<Integer, Long> positive = new TreeMap<>(Map.of(-5, 2L, -4, 3L, -2, 1L, 1, 4L, 5, 7L));
        final Map<Integer, Long> negative = new TreeMap<>(Map.of(2, 5L, 3, 1L));
        final ProtobufDecoder.Message family = only(encode(HistogramSnapshot.builder().name("mech_hiccup_seconds")
            .help("Hiccups").dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(Labels.of("jvm", "host"))
                .nativeSchema(3).nativeZeroThreshold(Math.scalb(1.0, -128)).nativeZeroCount(6)
                .nativeBucketsForPositiveValues(buckets(positive)).nativeBucketsForNegativeValues(buckets(negative))
                .sum(12.25).build())
            .build()));
        assertEquals("mech_hiccup_seconds", family.string(1));
        assertEquals(4, family.varint(3), "HISTOGRAM");
        final ProtobufDecoder.Message metric = only(family.messages(4));
        assertEquals(Map.of("jvm", "host"), labels(metric));
        final ProtobufDecoder.Message histogram = metric.message(7);
        assertEquals(29, histogram.varint(1), "sample_count: every bucket and the zero bucket");
        assertEquals(12.25, histogram.dbl(2));
        assertFalse(histogram.has(3), "no classic bucket, and no exemplar to carry on one");
        assertEquals(3, histogram.sint(5), "schema");
        assertEquals(Math.scalb(1.0, -128), histogram.dbl(6), "zero_threshold");
        assertEquals(6, histogram.varint(7), "zero_count");
        // Gaps of one and two empty buckets stay in the span, a gap of three starts the next one.
        assertEquals(List.of(List.of(-5L, 7L), List.of(3L, 1L)), spans(histogram, 12));
        assertEquals(List.of(2L, 1L, -3L, 1L, -1L, 0L, 4L, 3L), histogram.sints(13));
        assertEquals(List.of(List.of(2L, 2L)), spans(histogram, 9));
        assertEquals(List.of(5L, -4L), histogram.sints(10));
        assertEquals(positive, counts(spans(histogram, 12), histogram.sints(13)));
        assertEquals(negative, counts(spans(histogram, 9), histogram.sints(10)));
        assertEquals(sorted(histogram.numbers()), histogram.numbers(), "fields in number order, as protobuf writes them");
    }

    private static NativeHistogramBuckets buckets(final Map<Integer, Long> counts) {
        final NativeHistogramBuckets.Builder builder = NativeHistogramBuckets.builder();
        counts.forEach(builder::bucket);
        return builder.build();
    }

    /** Each BucketSpan (offset 1 sint32, length 2 uint32) as [offset, length]. */
    private static List<List<Long>> spans(final ProtobufDecoder.Message histogram, final int field) {
        return histogram.messages(field).stream().map(span -> List.of(span.sint(1), span.varint(2))).toList();
    }

    /** The non-empty buckets that spans and deltas describe, by index, as Prometheus reads them. */
    private static Map<Integer, Long> counts(final List<List<Long>> spans, final List<Long> deltas) {
        final Map<Integer, Long> counts = new TreeMap<>();
        int index = 0;
        int delta = 0;
        long count = 0;
        for (final List<Long> span : spans) {
            index += span.get(0).intValue();
            for (int i = 0; i < span.get(1); i++) {
                count += deltas.get(delta++);
                if (count != 0) {
                    counts.put(index, count);
                }
                index++;
            }
        }
        assertEquals(deltas.size(), delta, "one delta per bucket the spans hold");
        return counts;
    }

    private static List<Integer> sorted(final List<Integer> numbers) {
        return numbers.stream().sorted().toList();
    }

    @Test
    void classicBucketsAreCumulativeBesideNativeOnes() throws IOException {
        final ProtobufDecoder.Message histogram = only(only(encode(HistogramSnapshot.builder().name("latency_seconds")
            .dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .classicHistogramBuckets(ClassicHistogramBuckets.builder().bucket(0.001, 3).bucket(0.01, 5)
                    .bucket(Double.POSITIVE_INFINITY, 1).build())
                .nativeSchema(0).nativeZeroCount(0).nativeBucketsForPositiveValues(buckets(Map.of(-9, 3L, -6, 5L, 3, 1L)))
                .sum(1.5).build())
            .build())).messages(4)).message(7);
        final List<ProtobufDecoder.Message> classic = histogram.messages(3);
        assertEquals(3, classic.size());
        assertEquals(List.of(3L, 8L, 9L), classic.stream().map(b -> b.varint(1)).toList(), "cumulative_count");
        assertEquals(List.of(0.001, 0.01, Double.POSITIVE_INFINITY), classic.stream().map(b -> b.dbl(2)).toList());
        assertEquals(0, histogram.sint(5), "the native schema is there too");
        assertEquals(Map.of(-9, 3L, -6, 5L, 3, 1L), counts(spans(histogram, 12), histogram.sints(13)));
        assertEquals(9, histogram.varint(1));
    }

    @Test
    void summaryCarriesCountSumAndQuantiles() throws IOException {
        final ProtobufDecoder.Message family = only(encode(SummarySnapshot.builder().name("mech_hiccup_hdr_seconds")
            .dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder().count(10).sum(2.5)
                .quantiles(Quantiles.of(List.of(new Quantile(0.5, 0.1), new Quantile(0.99, 0.9)))).build())
            .build()));
        assertEquals(2, family.varint(3), "SUMMARY");
        final ProtobufDecoder.Message summary = only(family.messages(4)).message(4);
        assertEquals(10, summary.varint(1));
        assertEquals(2.5, summary.dbl(2));
        final List<ProtobufDecoder.Message> quantiles = summary.messages(3);
        assertEquals(List.of(0.5, 0.99), quantiles.stream().map(q -> q.dbl(1)).toList());
        assertEquals(List.of(0.1, 0.9), quantiles.stream().map(q -> q.dbl(2)).toList());
    }

    @Test
    void aFamilyWithNoSeriesLeftIsLeftOut() throws IOException {
        final List<ProtobufDecoder.Message> families = encode(
            SummarySnapshot.builder().name("empty").dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder().build()).build(),
            GaugeSnapshot.builder().name("after").dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(3).build()).build());
        assertEquals(List.of("after"), families.stream().map(f -> f.string(1)).toList());
    }

    @Test
    void infoStateSetGaugeHistogramAndUntypedAreTypedAsClientJavaTypesThem() throws IOException {
        final List<ProtobufDecoder.Message> families = encode(
            InfoSnapshot.builder().name("build").dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                .labels(Labels.of("version", "1.2")).build()).build(),
            StateSetSnapshot.builder().name("feature").dataPoint(StateSetSnapshot.StateSetDataPointSnapshot.builder()
                .state("a", true).state("b", false).build()).build(),
            HistogramSnapshot.builder().name("queue_size").gaugeHistogram(true).dataPoint(HistogramSnapshot
                .HistogramDataPointSnapshot.builder().classicHistogramBuckets(ClassicHistogramBuckets.builder()
                    .bucket(Double.POSITIVE_INFINITY, 4).build()).sum(8).build()).build(),
            UnknownSnapshot.builder().name("legacy").dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().value(7)
                .scrapeTimestampMillis(5_000).build()).build());
        // MetricSnapshots sorts its families by name.
        assertEquals(List.of("build_info", "feature", "legacy", "queue_size"), families.stream().map(f -> f.string(1)).toList());
        assertEquals(List.of(1L, 1L, 3L, 5L), families.stream().map(f -> f.varint(3)).toList(), "GAUGE, GAUGE, UNTYPED, GAUGE_HISTOGRAM");
        final ProtobufDecoder.Message info = only(families.get(0).messages(4));
        assertEquals(Map.of("version", "1.2"), labels(info));
        assertEquals(1.0, info.message(2).dbl(1));
        final List<ProtobufDecoder.Message> states = families.get(1).messages(4);
        assertEquals(List.of(Map.of("feature", "a"), Map.of("feature", "b")), states.stream().map(ProtobufExpositionTest::labels).toList());
        assertEquals(List.of(1.0, 0.0), states.stream().map(s -> s.message(2).dbl(1)).toList());
        final ProtobufDecoder.Message untyped = only(families.get(2).messages(4));
        assertEquals(7.0, untyped.message(5).dbl(1));
        assertFalse(untyped.has(6), "client_java sends no timestamp with an untyped series");
    }

    @Test
    void nonAsciiLabelValuesAreUtf8() throws IOException {
        final ProtobufDecoder.Message metric = only(only(encode(GaugeSnapshot.builder().name("lock_wait")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("site", "Zähler.läuft(日本.java:12)"))
                .value(1).build()).build())).messages(4));
        assertEquals(Map.of("site", "Zähler.läuft(日本.java:12)"), labels(metric));
    }

    @Test
    void acceptsWhatClientJavaAccepts() {
        final PrometheusProtobufWriter clientJava = new PrometheusProtobufWriter();
        for (final String accept : new String[] {null, "", "text/plain; version=0.0.4",
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited",
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited;q=0.7,"
                + "text/plain;version=1.0.0;escaping=allow-utf-8;q=0.6,application/openmetrics-text;version=1.0.0;q=0.5",
            "application/openmetrics-text; version=1.0.0", "application/vnd.google.protobuf"}) {
            assertEquals(clientJava.accepts(accept), ProtobufExposition.accepts(accept), String.valueOf(accept));
        }
        assertTrue(ProtobufExposition.accepts("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily"));
        assertEquals(clientJava.getContentType(), ProtobufExposition.CONTENT_TYPE);
    }
}
