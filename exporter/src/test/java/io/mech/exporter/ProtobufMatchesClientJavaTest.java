package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Exemplar;
import io.prometheus.metrics.model.snapshots.Exemplars;
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
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * mech's protobuf writer against the one it replaces, client_java 1.8.0's (on the test class
 * path only): for the same snapshots, under every escaping scheme a scraper can ask for, the
 * bytes must be the same. The one deliberate difference, a family left without series, is
 * covered by {@link ProtobufExpositionTest} instead.
 */
class ProtobufMatchesClientJavaTest {

    private static final Exemplar TIMED = Exemplar.builder().value(0.004).labels(Labels.of("trace_id", "abc"))
        .timestampMillis(1_700_000_000_250L).build();
    private static final Exemplar DOTTED = Exemplar.builder().value(0.3).labels(Labels.of("trace.id", "def")).build();

    private static byte[] clientJava(final MetricSnapshots snapshots, final EscapingScheme scheme) throws IOException {
        final PrometheusProtobufWriter writer = new PrometheusProtobufWriter();
        assertTrue(writer.isAvailable(), "client_java's protobuf writer is on the test class path");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(out, snapshots, scheme);
        return out.toByteArray();
    }

    private static byte[] mech(final MetricSnapshots snapshots, final EscapingScheme scheme) throws IOException {
        final ProtobufBuffer buffer = new ProtobufBuffer(64);
        ProtobufExposition.write(snapshots, scheme, buffer);
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        buffer.writeTo(out);
        return out.toByteArray();
    }

    private static void assertSameBytes(final MetricSnapshots snapshots) throws IOException {
        for (final EscapingScheme scheme : EscapingScheme.values()) {
            final byte[] expected = clientJava(snapshots, scheme);
            assertTrue(expected.length > 0);
            assertArrayEquals(expected, mech(snapshots, scheme), "escaping " + scheme);
        }
    }

    @Test
    void everyKindOfFamilyIsWrittenAsClientJavaWritesIt() throws IOException {
        assertSameBytes(new MetricSnapshots(List.of(
            CounterSnapshot.builder().name("http.requests").help("Requests, grüße").dataPoint(CounterSnapshot.CounterDataPointSnapshot
                .builder().labels(Labels.of("http.method", "GET", "code", "200")).value(17).exemplar(DOTTED)
                .createdTimestampMillis(1_700_000_000_123L).scrapeTimestampMillis(1_700_000_009_000L).build()).build(),
            CounterSnapshot.builder().name("mech_stalls").dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(0).build())
                .build(),
            GaugeSnapshot.builder().name("temperature.total").dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(-3.5)
                .build()).build(),
            GaugeSnapshot.builder().name("dup").help("merged").dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(Labels.of("part", "a")).value(1).build()).build(),
            GaugeSnapshot.builder().name("dup").help("merged").dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(Labels.of("part", "b")).value(2).build()).build(),
            HistogramSnapshot.builder().name("latency.seconds").help("both kinds").dataPoint(HistogramSnapshot
                .HistogramDataPointSnapshot.builder().labels(Labels.of("route", "/x"))
                .classicHistogramBuckets(ClassicHistogramBuckets.builder().bucket(0.005, 4).bucket(0.5, 2)
                    .bucket(Double.POSITIVE_INFINITY, 2).build())
                .nativeSchema(2).nativeZeroThreshold(1e-6).nativeZeroCount(1)
                .nativeBucketsForPositiveValues(nativeBuckets(-31, 2, -30, 2, -2, 1, 9, 1))
                .nativeBucketsForNegativeValues(nativeBuckets(-4, 1))
                .exemplars(Exemplars.of(TIMED, DOTTED)).sum(0.9).createdTimestampMillis(1_600_000_000_000L)
                .scrapeTimestampMillis(1_700_000_009_000L).build()).build(),
            HistogramSnapshot.builder().name("native_only").dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .nativeSchema(-1).nativeZeroCount(0).nativeBucketsForPositiveValues(nativeBuckets(0, 3, 4, 1, 5, 9))
                .exemplars(Exemplars.of(TIMED)).sum(40).build()).build(),
            hiccups(),
            HistogramSnapshot.builder().name("queue_depth").gaugeHistogram(true).dataPoint(HistogramSnapshot
                .HistogramDataPointSnapshot.builder().classicHistogramBuckets(ClassicHistogramBuckets.builder().bucket(1, 2)
                    .bucket(Double.POSITIVE_INFINITY, 3).build()).sum(9).build()).build(),
            SummarySnapshot.builder().name("mech_hiccup_hdr_seconds").dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder()
                .labels(Labels.of("jvm", "host")).count(1000).sum(0.25).quantiles(Quantiles.of(List.of(new Quantile(0.5, 0.0001),
                    new Quantile(1.0, 0.03)))).scrapeTimestampMillis(1_700_000_009_000L).build()).build(),
            InfoSnapshot.builder().name("jvm.runtime").help("runtime").dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder()
                .labels(Labels.of("version", "25+36", "vendor.name", "Eclipse Adoptium")).build()).build(),
            StateSetSnapshot.builder().name("mech.mode").dataPoint(StateSetSnapshot.StateSetDataPointSnapshot.builder()
                .labels(Labels.of("jvm", "host")).state("lean", true).state("full", false).build()).build(),
            UnknownSnapshot.builder().name("legacy").dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().value(7)
                .exemplar(TIMED).scrapeTimestampMillis(5_000).build()).build())));
    }

    /** The hiccup histogram as mech builds it: an HdrHistogram of nanoseconds mapped onto native buckets. */
    private static MetricSnapshot hiccups() {
        final Histogram nanos = new Histogram(86_400_000_000_000L, 2);
        nanos.recordValueWithCount(0, 3);
        for (long v = 20_000; v < 400_000_000; v = v * 13 / 10) {
            nanos.recordValueWithCount(v, 1 + v % 17);
        }
        final HistogramWalk.Walked walked = HistogramWalk.walk(nanos, new double[0], false);
        final NativeBuckets.Mapped mapped = walked.nativeBuckets();
        return HistogramSnapshot.builder().name("mech_hiccup_seconds").help("Hiccups").dataPoint(HistogramSnapshot
            .HistogramDataPointSnapshot.builder().labels(Labels.of("jvm", "host")).sum(walked.sumSeconds())
            .nativeSchema(NativeBuckets.SCHEMA).nativeZeroThreshold(NativeBuckets.ZERO_THRESHOLD)
            .nativeZeroCount(mapped.zeroCount()).nativeBucketsForPositiveValues(mapped.buckets()).build()).build();
    }

    private static NativeHistogramBuckets nativeBuckets(final long... indexAndCount) {
        final NativeHistogramBuckets.Builder builder = NativeHistogramBuckets.builder();
        for (int i = 0; i < indexAndCount.length; i += 2) {
            builder.bucket((int) indexAndCount[i], indexAndCount[i + 1]);
        }
        return builder.build();
    }

    @Test
    void clientJavasJvmFamiliesAreWrittenAsClientJavaWritesThem() throws IOException {
        final PrometheusRegistry registry = new PrometheusRegistry();
        JvmFamilies.register(IsolatedProperties.create(), registry);
        assertSameBytes(registry.scrape());
    }
}
