package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.MetricsPortHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21: an authentication or TLS option without its partner is an error naming both, and no
 * endpoint starts, rather than /metrics served open or in plain text; the host runs on.
 */
@QuietHosts
class ExporterAuthOptionsTest {

    @TempDir
    Path dir;

    private Forked.Result runHost(final int port, final String options) throws Exception {
        return Forked.run(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "report=off,hiccup.log=,prometheus.port=" + port + "," + options,
            "-cp", Paths.testClasses(), MetricsPortHost.class.getName(), Integer.toString(port)), 30);
    }

    private static void assertRefusedWithOneLine(final Forked.Result result, final int port, final String lone,
                                                 final String partner) {
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("metrics: none"), result.out());
        assertTrue(result.out().contains("port " + port + ": closed"), result.out());
        final List<String> lines = result.mechLines();
        assertEquals(1, lines.size(), result.err());
        assertTrue(lines.get(0).contains(lone) && lines.get(0).contains(partner) && lines.get(0).contains("no /metrics"),
            lines.get(0));
    }

    @Test
    void passwordFileWithoutUserServesNothing() throws Exception {
        final Path password = Files.writeString(dir.resolve("password"), "s3cret\n");
        final int port = PrometheusServer.freePort();
        assertRefusedWithOneLine(runHost(port, "prometheus.password-file=" + password), port,
            "prometheus.password-file", "prometheus.user");
    }

    @Test
    void keystorePasswordFileWithoutKeystoreServesNothing() throws Exception {
        final Path password = Files.writeString(dir.resolve("keystore-password"), "changeit\n");
        final int port = PrometheusServer.freePort();
        assertRefusedWithOneLine(runHost(port, "prometheus.keystore-password-file=" + password), port,
            "prometheus.keystore-password-file", "prometheus.keystore");
    }

    /** The control: the same host with no such option finds the endpoint its options asked for. */
    @Test
    void theHostSeesTheEndpointWhenTheOptionsAgree() throws Exception {
        final int port = PrometheusServer.freePort();
        final Forked.Result result = runHost(port, "prometheus=on");
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains("metrics: http://127.0.0.1:" + port + "/metrics"), result.out());
        assertTrue(result.out().contains("port " + port + ": open"), result.out());
        assertEquals(List.of(), result.mechLines(), result.err());
    }
}
