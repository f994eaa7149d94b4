package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.testing.Await;
import io.prometheus.metrics.model.snapshots.Labels;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrometheusEndpointTest {

    private static final long MS = 1_000_000;
    private static HiccupRecorder hiccups;

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void record() throws InterruptedException {
        hiccups = HiccupRecorder.start(new HiccupSettings(MS, 20 * MS, 0, 2 * MS, null), w -> { });
        Await.until("the recorder closed an interval with hiccups in it", Duration.ofSeconds(10),
            () -> hiccups.snapshot().intervals() > 0 && hiccups.snapshot().histogram().getTotalCount() > 0);
    }

    @AfterAll
    static void stop() {
        hiccups.close();
    }

    private List<MetricFamilies> families(final boolean classic) {
        return List.of(new HiccupFamilies(Map.of(Labels.of("jvm", "host"), hiccups::snapshot), classic));
    }

    private static ExporterSettings plain(final int port) {
        return new ExporterSettings("127.0.0.1", port, "", null, null, null, false, false);
    }

    private HttpResponse<String> get(final int port, final String authorization) throws Exception {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesEveryHiccupFamilyInText() throws Exception {
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(plain(0), families(false), warnings::add, () -> true);
        try {
            final HttpResponse<String> response = get(endpoint.port(), null);
            assertEquals(200, response.statusCode());
            for (final String line : List.of("# TYPE mech_hiccup_seconds histogram", "# TYPE mech_hiccup_hdr_seconds summary",
                "mech_hiccup_hdr_seconds{jvm=\"host\",quantile=\"0.99\"}", "# TYPE mech_hiccup_interval_max_seconds gauge",
                "# TYPE mech_hiccup_stall_seconds_total counter", "# TYPE mech_hiccup_stalls_total counter")) {
                assertTrue(response.body().contains(line), line + " in\n" + response.body());
            }
            assertTrue(warnings.isEmpty(), warnings.toString());
        } finally {
            endpoint.close();
        }
    }

    /**
     * A scrape that would set client_java up while the host's heap has no room is answered 503 and
     * builds nothing; the first once it has room is served.
     */
    @Test
    void setsNothingUpWhileTheHeapHasNoRoom() throws Exception {
        final AtomicBoolean room = new AtomicBoolean(false);
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(plain(0), families(true), warnings::add, room::get);
        try {
            final HttpResponse<String> refused = get(endpoint.port(), null);
            assertEquals(503, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("heap is full"), refused.body());
            room.set(true);
            final HttpResponse<String> served = get(endpoint.port(), null);
            assertEquals(200, served.statusCode(), served.body());
            assertTrue(served.body().contains("# TYPE mech_hiccup_seconds histogram"), served.body());
            // built once, it no longer asks: a heap full later does not take /metrics away
            room.set(false);
            assertEquals(200, get(endpoint.port(), null).statusCode());
            assertTrue(warnings.isEmpty(), warnings.toString());
        } finally {
            endpoint.close();
        }
    }

    /** The endpoint's threads say they are mech's, and it starts no serving thread before a connection comes. */
    @Test
    void everyThreadOfTheEndpointIsMechsAndServingThreadsComeWithConnections() throws Exception {
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(plain(0), families(false), warnings::add, () -> true);
        try {
            assertEquals(0, endpoint.scrapeThreads(), "serving threads before any connection");
            assertEquals(200, get(endpoint.port(), null).statusCode());
            assertEquals(1, endpoint.scrapeThreads(), "serving threads after one scrape");
            final List<String> names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(name -> name.contains("prometheus")).toList();
            assertTrue(names.containsAll(List.of("mech-prometheus", "mech-prometheus-deadlines", "mech-prometheus-1")), names.toString());
            for (final Thread thread : Thread.getAllStackTraces().keySet()) {
                if (thread.getName().startsWith("mech-prometheus")) {
                    assertTrue(thread.isDaemon(), thread.getName() + " is a daemon");
                }
            }
        } finally {
            endpoint.close();
        }
    }

    @Test
    void classicBucketsAreExposedWhenAskedFor() throws Exception {
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(plain(0), families(true), warnings::add, () -> true);
        try {
            final String body = get(endpoint.port(), null).body();
            assertTrue(body.contains("mech_hiccup_seconds_bucket{jvm=\"host\",le=\"0.001\"}"), body);
        } finally {
            endpoint.close();
        }
    }

    @Test
    void servesProtobufForNativeHistograms() throws Exception {
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(plain(0), families(false), warnings::add, () -> true);
        try {
            final HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
                .header("Accept", "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited")
                .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, response.statusCode());
            assertTrue(response.headers().firstValue("Content-Type").orElse("").contains("protobuf"));
            assertTrue(new String(response.body(), StandardCharsets.ISO_8859_1).contains("mech_hiccup_seconds"));
        } finally {
            endpoint.close();
        }
    }

    @Test
    void basicAuthRefusesStrangersAndAdmitsTheUser() throws Exception {
        final Path password = Files.writeString(dir.resolve("password"), "s3cret\n");
        final ExporterSettings settings = new ExporterSettings("127.0.0.1", 0, "scraper", password, null, null, false, false);
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(settings, families(false), warnings::add, () -> true);
        try {
            assertEquals(401, get(endpoint.port(), null).statusCode());
            assertEquals(401, get(endpoint.port(), basic("scraper", "wrong")).statusCode());
            assertEquals(200, get(endpoint.port(), basic("scraper", "s3cret")).statusCode());
        } finally {
            endpoint.close();
        }
    }

    private static String basic(final String user, final String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void keystoreServesHttps() throws Exception {
        final Path keystore = dir.resolve("mech.p12");
        final Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", "changeit",
            "-alias", "mech", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1")
            .redirectErrorStream(true).start();
        assertEquals(0, keytool.waitFor(), new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        final Path password = Files.writeString(dir.resolve("keystore-password"), "changeit");
        final ExporterSettings settings = new ExporterSettings("127.0.0.1", 0, "", null, keystore, password, false, false);
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(settings, families(false), warnings::add, () -> true);
        try {
            final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(KeyStore.getInstance(keystore.toFile(), "changeit".toCharArray()));
            final SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, trust.getTrustManagers(), null);
            final HttpResponse<String> response = HttpClient.newBuilder().sslContext(tls).build().send(
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + endpoint.port() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertTrue(response.body().contains("mech_hiccup_seconds"));
        } finally {
            endpoint.close();
        }
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void busyPortWarnsOnceAndReturnsNothing() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            assertNull(PrometheusEndpoint.start(plain(taken.getLocalPort()), families(false), warnings::add, () -> true));
        }
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("cannot serve /metrics") && warnings.get(0).contains("in use"), warnings.get(0));
    }

    @Test
    void missingPasswordFileWarnsAndReturnsNothing() {
        final ExporterSettings settings = new ExporterSettings("127.0.0.1", 0, "u", dir.resolve("nope"), null, null, false, false);
        assertNull(PrometheusEndpoint.start(settings, families(false), warnings::add, () -> true));
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("nope"), warnings.get(0));
    }

    @Test
    void hostSettingsForClientJavaAreIgnored() throws Exception {
        System.setProperty("io.prometheus.exporter.httpServer.port", "1");
        System.setProperty("io.prometheus.no.such.property", "x");
        try {
            final PrometheusEndpoint endpoint = PrometheusEndpoint.start(plain(0), families(false), warnings::add, () -> true);
            try {
                assertEquals(200, get(endpoint.port(), null).statusCode());
                assertTrue(endpoint.port() != 1);
            } finally {
                endpoint.close();
            }
        } finally {
            System.clearProperty("io.prometheus.exporter.httpServer.port");
            System.clearProperty("io.prometheus.no.such.property");
        }
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void settingsNameTheirBounds() {
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> new ExporterSettings("", 9464, "", null, null, null, true, false)).getMessage().contains("prometheus.host"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> new ExporterSettings("127.0.0.1", 9464, "u", null, null, null, true, false)).getMessage()
            .contains("prometheus.password-file"));
    }
}
