package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.Await;
import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exporter inside the real, relocated mech.jar. */
@QuietHosts
class ExporterAgentTest {

    @TempDir
    Path dir;

    @Test
    void busyPortWarnsOnceAndHiccupsAreStillLogged() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            final Path log = dir.resolve("busy.hlog");
            final Forked.Result result = Forked.run(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
                "report=off,hiccup.interval=200ms,prometheus.port=" + taken.getLocalPort() + ",hiccup.log=" + log,
                "-cp", Paths.testClasses(), SleepingHost.class.getName(), "1000"), 30);
            assertEquals(0, result.exit());
            assertTrue(result.out().contains("host done"));
            final List<String> lines = result.mechLines();
            assertEquals(1, lines.size(), result.err());
            assertTrue(lines.get(0).contains("cannot serve /metrics on 127.0.0.1:" + taken.getLocalPort()), lines.get(0));
            assertTrue(HdrTools.intervalLines(log).size() >= 4, "hiccups logged while the port was taken");
        }
    }

    @Test
    void hostClientJavaSettingsDoNotReachMech() throws Exception {
        final int port = PrometheusServer.freePort();
        final String classpath = Paths.testClasses() + File.pathSeparator + Paths.codeSource(ExporterAgentTest.class)
            .resolve("host-config");
        final Forked host = Forked.start(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "report=off,hiccup.log=,prometheus.port=" + port,
            "-Dio.prometheus.exporter.httpServer.port=2", "-Dio.prometheus.other_unknown=1",
            "-cp", classpath, SleepingHost.class.getName(), "4000"),
            // client_java reads these whatever its package is called: relocation renames properties, not variables.
            Map.of("IO_PROMETHEUS_EXPORTER_HTTP_SERVER_PORT", "3", "IO_PROMETHEUS_EXPORTER_HTTPSERVER_PORT", "3"));
        final HttpResponse<String> response = firstScrape(port, "mech serving on its own port");
        final Forked.Result result = host.await(30);
        assertEquals(200, response.statusCode(), "mech served on its own port");
        assertTrue(response.body().contains("mech_hiccup_seconds"));
        assertEquals(0, result.exit());
        assertEquals(List.of(), result.mechLines(), result.err());
    }

    /**
     * client_java's native-memory families are served when the host tracks its native memory, and
     * left out, without starting the platform MBean server to find that out, when it does not.
     */
    @Test
    void nativeMemoryFamiliesFollowTheHostsTracking() throws Exception {
        for (final String tracking : List.of("summary", "off")) {
            final int port = PrometheusServer.freePort();
            final Forked host = Forked.start(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
                "report=off,hiccup.log=,prometheus.port=" + port, "-XX:NativeMemoryTracking=" + tracking,
                "-cp", Paths.testClasses(), SleepingHost.class.getName(), "3000"), Map.of());
            final HttpResponse<String> response = firstScrape(port, "mech serving, NativeMemoryTracking=" + tracking);
            final Forked.Result result = host.await(30);
            assertEquals(200, response.statusCode(), "served, NativeMemoryTracking=" + tracking);
            assertTrue(response.body().contains("\njvm_memory_used_bytes{"), "JVM families, NativeMemoryTracking=" + tracking);
            assertEquals(tracking.equals("summary"), response.body().contains("\njvm_native_memory_committed_bytes{"),
                "native-memory families, NativeMemoryTracking=" + tracking);
            assertEquals(0, result.exit());
            assertEquals(List.of(), result.mechLines(), result.err());
        }
    }

    /** The first answer of /metrics, within 5 s of the host's start. */
    private static HttpResponse<String> firstScrape(final int port, final String what) throws InterruptedException {
        final HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build();
        return Await.value(what, Duration.ofSeconds(5), Duration.ofMillis(100),
            () -> HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString()));
    }
}
