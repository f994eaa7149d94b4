package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.Await;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 37, finding 4: a scrape in protobuf, as Prometheus sends with native histograms on, puts
 * nothing on the host's stderr, on any JDK. Before, on JDK 24 and later, the protobuf runtime that
 * client_java bundles printed four {@code sun.misc.Unsafe} warnings there at the first one.
 */
@QuietHosts
class ProtobufScrapeQuietTest {

    /** The Accept header of Prometheus 3 with native histograms on. */
    private static final String PROMETHEUS_ACCEPT = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
        + "encoding=delimited;q=0.7,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.6,"
        + "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,*/*;q=0.1";

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void protobufScrapesLeaveTheHostsStderrEmpty(final Path jdk) throws Exception {
        final int port = PrometheusServer.freePort();
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk,
            "report=off,hiccup.log=,hiccup.interval=200ms,prometheus.port=" + port,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "600000"));
        final HttpResponse<byte[]> plain;
        final HttpResponse<byte[]> compressed;
        try {
            plain = awaitHiccups(port);
            compressed = scrape(port, "gzip");
        } finally {
            ProcessHandle.of(host.pid()).ifPresent(ProcessHandle::destroy);
        }
        final Forked.Result result = host.await(30);
        assertEquals("application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited",
            plain.headers().firstValue("Content-Type").orElse(""));
        assertHiccupHistogram(plain.body());
        assertEquals("gzip", compressed.headers().firstValue("Content-Encoding").orElse(""));
        try (GZIPInputStream unzipped = new GZIPInputStream(new ByteArrayInputStream(compressed.body()))) {
            assertHiccupHistogram(unzipped.readAllBytes());
        }
        assertEquals("", result.err(), "the host's stderr");
    }

    private static HttpResponse<byte[]> scrape(final int port, final String encoding) throws IOException, InterruptedException {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
            .timeout(Duration.ofSeconds(10)).header("Accept", PROMETHEUS_ACCEPT);
        if (encoding != null) {
            request.header("Accept-Encoding", encoding);
        }
        final HttpResponse<byte[]> response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        return response;
    }

    /** Scrapes until the first hiccup interval has closed and the histogram counts it, for at most 30 s. */
    private static HttpResponse<byte[]> awaitHiccups(final int port) throws Exception {
        return Await.value("a protobuf scrape with hiccups counted in mech_hiccup_seconds", Duration.ofSeconds(30), Duration.ofMillis(100), () -> {
            final HttpResponse<byte[]> response = scrape(port, null);
            return hiccupsCounted(response.body()) ? response : null;
        });
    }

    /**
     * Whether the body serves mech's hiccup histogram with a count: the family is served from
     * the start, empty until the first interval closes.
     */
    private static boolean hiccupsCounted(final byte[] body) {
        for (final Wire family : Wire.delimited(body)) {
            if (family.string(1).equals("mech_hiccup_seconds") && !family.messages(4).isEmpty()
                && !family.messages(4).get(0).messages(7).isEmpty()) {
                final Wire histogram = family.messages(4).get(0).messages(7).get(0);
                return histogram.has(1, 0) && histogram.varint(1) > 0;
            }
        }
        return false;
    }

    private static List<String> familyNames(final byte[] body) {
        final List<String> names = new ArrayList<>();
        for (final Wire family : Wire.delimited(body)) {
            names.add(family.string(1));
        }
        return names;
    }

    /**
     * mech's hiccup family, as metrics.proto lays it out: MetricFamily name 1, type 3 (HISTOGRAM
     * is 4), metric 4; Metric label 1 (LabelPair name 1, value 2), histogram 7; Histogram
     * sample_count 1, schema 5 (sint32, mech's is 3), zero_threshold 6.
     */
    private static void assertHiccupHistogram(final byte[] body) {
        for (final Wire family : Wire.delimited(body)) {
            if (family.string(1).equals("mech_hiccup_seconds")) {
                assertEquals(4, family.varint(3), "HISTOGRAM");
                final Wire metric = family.messages(4).get(0);
                final Wire label = metric.messages(1).get(0);
                assertEquals(List.of("jvm", "host"), List.of(label.string(1), label.string(2)));
                final Wire histogram = metric.messages(7).get(0);
                assertEquals(6, histogram.varint(5), "schema 3, zigzag-encoded");
                assertTrue(histogram.varint(1) > 0, "hiccups counted");
                assertEquals(Math.scalb(1.0, -128), Double.longBitsToDouble(histogram.fixed64(6)), "zero threshold");
                return;
            }
        }
        throw new AssertionError("no mech_hiccup_seconds in " + familyNames(body));
    }

    /**
     * A protobuf message read as its raw fields, enough to check a few of them: field number i
     * holds the varints, fixed64s and length-delimited bytes found under it.
     */
    private record Wire(List<long[]> numbers, List<byte[]> values) {

        static List<Wire> delimited(final byte[] stream) {
            final List<Wire> messages = new ArrayList<>();
            final int[] at = {0};
            while (at[0] < stream.length) {
                final int length = (int) varint(stream, at);
                messages.add(parse(Arrays.copyOfRange(stream, at[0], at[0] + length)));
                at[0] += length;
            }
            return messages;
        }

        /** Each field as {number, wire type, value} with its bytes when length-delimited. */
        static Wire parse(final byte[] bytes) {
            final List<long[]> numbers = new ArrayList<>();
            final List<byte[]> values = new ArrayList<>();
            final int[] at = {0};
            while (at[0] < bytes.length) {
                final long tag = varint(bytes, at);
                final int type = (int) (tag & 7);
                long value = 0;
                byte[] delimited = null;
                if (type == 0) {
                    value = varint(bytes, at);
                } else if (type == 1) {
                    for (int i = 7; i >= 0; i--) {
                        value = value << 8 | (bytes[at[0] + i] & 0xFF);
                    }
                    at[0] += 8;
                } else if (type == 2) {
                    final int length = (int) varint(bytes, at);
                    delimited = Arrays.copyOfRange(bytes, at[0], at[0] + length);
                    at[0] += length;
                } else {
                    throw new AssertionError("unexpected wire type " + type);
                }
                numbers.add(new long[] {tag >>> 3, type, value});
                values.add(delimited);
            }
            return new Wire(numbers, values);
        }

        private static long varint(final byte[] bytes, final int[] at) {
            long value = 0;
            for (int shift = 0; ; shift += 7) {
                final byte b = bytes[at[0]++];
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
        }

        private int first(final int number, final int type) {
            for (int i = 0; i < numbers.size(); i++) {
                if (numbers.get(i)[0] == number && numbers.get(i)[1] == type) {
                    return i;
                }
            }
            throw new AssertionError("no field " + number + " of wire type " + type);
        }

        long varint(final int number) {
            return numbers.get(first(number, 0))[2];
        }

        /** Whether a field of the number and wire type is present: protobuf leaves out a field at its default. */
        boolean has(final int number, final int type) {
            return numbers.stream().anyMatch(field -> field[0] == number && field[1] == type);
        }

        long fixed64(final int number) {
            return numbers.get(first(number, 1))[2];
        }

        String string(final int number) {
            return new String(values.get(first(number, 2)), StandardCharsets.UTF_8);
        }

        List<Wire> messages(final int number) {
            final List<Wire> messages = new ArrayList<>();
            for (int i = 0; i < numbers.size(); i++) {
                if (numbers.get(i)[0] == number && numbers.get(i)[1] == 2) {
                    messages.add(parse(values.get(i)));
                }
            }
            return messages;
        }
    }
}
