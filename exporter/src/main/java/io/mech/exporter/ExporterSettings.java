package io.mech.exporter;

import java.nio.file.Path;

/**
 * How the /metrics endpoint is served.
 *
 * @param host             the address to bind; never empty, because client_java's default binds every interface
 * @param port             the port
 * @param user             the basic-auth user, or empty for no authentication
 * @param passwordFile     the file holding the basic-auth password (first line)
 * @param keystore         a PKCS12 or JKS keystore to serve HTTPS, or null for plain HTTP
 * @param keystorePassword the file holding the keystore's password (first line)
 * @param jvmMetrics       whether to register client_java's JVM metrics
 * @param classicBuckets   classic buckets instead of native ones, for Prometheus servers without native histograms
 */
public record ExporterSettings(String host, int port, String user, Path passwordFile, Path keystore,
                               Path keystorePassword, boolean jvmMetrics, boolean classicBuckets) {

    /**
     * Checks the bounds; a violation names the bound. An authentication or TLS option without its
     * partner is a violation too, never a silent fallback to an open or plain-text endpoint: the
     * caller starts no endpoint at all.
     */
    public ExporterSettings {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("prometheus.host must name an address (client_java would listen on all)");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("prometheus.port must be in 0..65535, got " + port);
        }
        if (!user.isEmpty() && passwordFile == null) {
            throw new IllegalArgumentException("prometheus.user needs prometheus.password-file");
        }
        if (user.isEmpty() && passwordFile != null) {
            throw new IllegalArgumentException("prometheus.password-file needs prometheus.user");
        }
        if (keystore != null && keystorePassword == null) {
            throw new IllegalArgumentException("prometheus.keystore needs prometheus.keystore-password-file");
        }
        if (keystore == null && keystorePassword != null) {
            throw new IllegalArgumentException("prometheus.keystore-password-file needs prometheus.keystore");
        }
    }

    /** @return true when scrapes must authenticate */
    public boolean authenticated() {
        return !user.isEmpty();
    }
}
