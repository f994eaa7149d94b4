package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 21: authentication and TLS never fail open, and an open endpoint beyond loopback says so. */
class EndpointAccessTest {

    private static final Path FILE = Path.of("secret");

    private static String refusal(final String user, final Path passwordFile, final Path keystore, final Path keystorePassword) {
        return assertThrows(IllegalArgumentException.class,
            () -> new ExporterSettings("127.0.0.1", 9464, user, passwordFile, keystore, keystorePassword, true, false)).getMessage();
    }

    private static void assertNamesBoth(final String message, final String option, final String partner) {
        assertTrue(message.contains(option) && message.contains(partner) && !message.contains("\n"), message);
    }

    @Test
    void everyAuthAndTlsOptionNeedsItsPartner() {
        assertNamesBoth(refusal("", FILE, null, null), "prometheus.password-file", "prometheus.user");
        assertNamesBoth(refusal("scraper", null, null, null), "prometheus.user", "prometheus.password-file");
        assertNamesBoth(refusal("", null, null, FILE), "prometheus.keystore-password-file", "prometheus.keystore");
        assertNamesBoth(refusal("", null, FILE, null), "prometheus.keystore", "prometheus.keystore-password-file");
    }

    private static ExporterSettings open(final String host) {
        return new ExporterSettings(host, 9464, "", null, null, null, true, false);
    }

    @Test
    void anOpenEndpointBeyondLoopbackWarns() throws Exception {
        for (final String host : List.of("0.0.0.0", "::", "192.0.2.7")) {
            final String warning = PrometheusEndpoint.exposure(open(host), new InetSocketAddress(InetAddress.getByName(host), 9464));
            assertTrue(warning != null && warning.contains(host + ":9464") && warning.contains("prometheus.user")
                && warning.contains("prometheus.password-file") && !warning.contains("\n"), host + ": " + warning);
        }
    }

    @Test
    void loopbackOrAuthenticatedEndpointsDoNotWarn() throws Exception {
        for (final String host : List.of("127.0.0.1", "::1", "localhost", "127.0.0.2")) {
            assertNull(PrometheusEndpoint.exposure(open(host), new InetSocketAddress(InetAddress.getByName(host), 9464)), host);
        }
        final ExporterSettings authenticated = new ExporterSettings("0.0.0.0", 9464, "scraper", FILE, null, null, true, false);
        assertNull(PrometheusEndpoint.exposure(authenticated, new InetSocketAddress(InetAddress.getByName("0.0.0.0"), 9464)));
    }
}
