package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** /metrics asked for protobuf: answered by mech's writer, negotiated, filtered and compressed as client_java did. */
class ProtobufScrapesTest {

    private static final String PROTOBUF =
        "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";
    /** What Prometheus 3 sends with native histograms on: protobuf first, text formats as fallbacks. */
    private static final String PROMETHEUS_ACCEPT = PROTOBUF + ";q=0.7,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.6,"
        + "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,*/*;q=0.1";

    private final List<String> warnings = new ArrayList<>();
    /** What the JDK's server logs at WARNING or above while a test runs, which a host would see. */
    private final List<LogRecord> serverLog = new ArrayList<>();
    private final Logger jdkServerLogger = Logger.getLogger("com.sun.net.httpserver");
    private final Handler serverLogHandler = new Handler() {
        @Override
        public void publish(final LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                synchronized (serverLog) {
                    serverLog.add(record);
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final HttpClient http = HttpClient.newHttpClient();
    private PrometheusEndpoint endpoint;

    @BeforeEach
    void start() {
        jdkServerLogger.addHandler(serverLogHandler);
        endpoint = PrometheusEndpoint.start(new ExporterSettings("127.0.0.1", 0, "", null, null, null, false, false),
            List.of(MetricFamilies.of(List.of("mech_hiccup_seconds", "mech_hiccup_stalls", "mech_queue_depth"), () -> List.of(
                HistogramSnapshot.builder().name("mech_hiccup_seconds").help("Hiccups").dataPoint(HistogramSnapshot
                    .HistogramDataPointSnapshot.builder().labels(Labels.of("jvm", "host")).nativeSchema(NativeBuckets.SCHEMA)
                    .nativeZeroThreshold(NativeBuckets.ZERO_THRESHOLD).nativeZeroCount(2)
                    .nativeBucketsForPositiveValues(NativeHistogramBuckets.builder().bucket(-100, 5).bucket(-90, 1).build())
                    .sum(0.01).build()).build(),
                CounterSnapshot.builder().name("mech_hiccup_stalls").dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
                    .labels(Labels.of("jvm", "host")).value(3).build()).build(),
                GaugeSnapshot.builder().name("mech_queue_depth").dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(4)
                    .build()).build()))),
            warnings::add, () -> true);
    }

    @AfterEach
    void stop() {
        endpoint.close();
        jdkServerLogger.removeHandler(serverLogHandler);
        assertEquals(List.of(), warnings, "mech warned of nothing");
        synchronized (serverLog) {
            assertEquals(List.of(), serverLog.stream().map(LogRecord::getMessage).toList(), "the JDK's server logged nothing");
        }
    }

    private HttpResponse<byte[]> scrape(final String method, final String query, final String... headers) throws Exception {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"
            + (query.isEmpty() ? "" : "?" + query))).method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static List<String> familyNames(final byte[] body) {
        return ProtobufDecoder.delimited(body).stream().map(f -> f.string(1)).toList();
    }

    @Test
    void prometheusAcceptHeaderGetsMechsProtobuf() throws Exception {
        final HttpResponse<byte[]> response = scrape("GET", "", "Accept", PROMETHEUS_ACCEPT);
        assertEquals(200, response.statusCode());
        assertEquals("application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited",
            response.headers().firstValue("Content-Type").orElse(""));
        assertEquals(Long.toString(response.body().length), response.headers().firstValue("Content-Length").orElse(""));
        final List<ProtobufDecoder.Message> families = ProtobufDecoder.delimited(response.body());
        assertEquals(List.of("mech_exporter_client_errors_total", "mech_hiccup_seconds", "mech_hiccup_stalls_total",
            "mech_queue_depth"), families.stream().map(f -> f.string(1)).toList());
        final ProtobufDecoder.Message histogram = families.get(1).messages(4).get(0).message(7);
        assertEquals(NativeBuckets.SCHEMA, histogram.sint(5));
        assertEquals(2, histogram.varint(7), "zero_count");
        assertEquals(List.of(5L, -4L), histogram.sints(13), "positive deltas");
    }

    @Test
    void gzipWhenTheScraperAcceptsIt() throws Exception {
        final HttpResponse<byte[]> response = scrape("GET", "", "Accept", PROTOBUF, "Accept-Encoding", "deflate, gzip");
        assertEquals(200, response.statusCode());
        assertEquals("gzip", response.headers().firstValue("Content-Encoding").orElse(""));
        final byte[] body;
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(response.body()))) {
            body = in.readAllBytes();
        }
        assertTrue(familyNames(body).contains("mech_hiccup_seconds"));
    }

    @Test
    void nameParametersFilterTheFamilies() throws Exception {
        final HttpResponse<byte[]> response = scrape("GET", "name[]=mech_hiccup_seconds&name[]=mech_queue_depth",
            "Accept", PROTOBUF);
        assertEquals(List.of("mech_hiccup_seconds", "mech_queue_depth"), familyNames(response.body()));
    }

    @Test
    void headHasTheHeadersAndNoBodyEvenWithGzip() throws Exception {
        final HttpResponse<byte[]> plain = scrape("HEAD", "", "Accept", PROTOBUF);
        assertEquals(200, plain.statusCode());
        assertEquals(0, plain.body().length);
        assertTrue(plain.headers().firstValue("Content-Type").orElse("").startsWith("application/vnd.google.protobuf"));
        assertTrue(Long.parseLong(plain.headers().firstValue("Content-Length").orElse("0")) > 0);
        final HttpResponse<byte[]> gzip = scrape("HEAD", "", "Accept", PROTOBUF, "Accept-Encoding", "gzip");
        assertEquals(200, gzip.statusCode());
        assertEquals(0, gzip.body().length);
    }

    @Test
    void textFormatsStayWithClientJava() throws Exception {
        final HttpResponse<byte[]> text = scrape("GET", "", "Accept", "text/plain; version=0.0.4");
        assertTrue(text.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        assertTrue(new String(text.body(), StandardCharsets.UTF_8).contains("mech_hiccup_stalls_total{jvm=\"host\"} 3.0"));
        final HttpResponse<byte[]> openMetrics = scrape("GET", "", "Accept", "application/openmetrics-text; version=1.0.0");
        assertTrue(openMetrics.headers().firstValue("Content-Type").orElse("").startsWith("application/openmetrics-text"));
        final HttpResponse<byte[]> debugText = scrape("GET", "debug=text", "Accept", PROTOBUF);
        assertEquals(200, debugText.statusCode());
        assertTrue(new String(debugText.body(), StandardCharsets.UTF_8).contains("# TYPE mech_hiccup_stalls_total counter"));
    }

    @Test
    void headOfACompressedTextScrapeHasNoBodyNorALogLine() throws Exception {
        final HttpResponse<byte[]> head = scrape("HEAD", "", "Accept", "text/plain; version=0.0.4", "Accept-Encoding", "gzip");
        assertEquals(200, head.statusCode());
        assertEquals(0, head.body().length);
        final String text = new String(scrape("GET", "").body(), StandardCharsets.UTF_8);
        assertTrue(text.contains("mech_exporter_client_errors_total{reason=\"disconnect\"} 0.0"), "no client counted as gone: " + text);
    }

    @Test
    void headOfAPlainTextScrapeGivesTheLengthOfTheBodyItWouldHaveGot() throws Exception {
        final HttpResponse<byte[]> head = scrape("HEAD", "", "Accept", "text/plain; version=0.0.4");
        assertEquals(200, head.statusCode());
        assertEquals(0, head.body().length);
        final long length = head.headers().firstValueAsLong("Content-Length").orElse(-1);
        final int got = scrape("GET", "", "Accept", "text/plain; version=0.0.4").body().length;
        // the next scrape counts one more request, which may add a digit or two
        assertTrue(length > 0 && Math.abs(got - length) < 64, "HEAD's Content-Length " + length + ", GET's body " + got);
    }

    @Test
    void theProtobufDebugDumpIsRefusedWithoutAWarning() throws Exception {
        final HttpResponse<byte[]> response = scrape("GET", "debug=prometheus-protobuf");
        assertEquals(500, response.statusCode());
        final String body = new String(response.body(), StandardCharsets.UTF_8);
        assertTrue(body.contains("'openmetrics' and 'text'"), body);
        assertFalse(body.contains("Exception"), body);
    }
}
