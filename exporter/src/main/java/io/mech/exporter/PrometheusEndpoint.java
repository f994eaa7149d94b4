package io.mech.exporter;

import io.mech.exporter.http.HttpServer;
import io.mech.probes.MechThreads;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * mech's /metrics endpoint: a server of its own ({@link HttpServer}) serving mech's own client_java
 * registry and configuration, so it neither reads nor disturbs the host's client_java.
 *
 * <p>Guarantees: starting never throws; a port in use or an unreadable secret yields one warning
 * and no endpoint. An endpoint bound beyond loopback without authentication starts, with one
 * warning. Every thread it starts is a daemon whose name begins with {@code mech-prometheus}.
 *
 * <p>The endpoint lives in the host's process, so a client must not be able to hurt the host
 * through it: connections are served on a few threads of their own under read and write
 * deadlines, and a slow, silent or vanished client costs one count in
 * {@code mech_exporter_client_errors_total} ({@link ClientErrors}), never a line in the host's
 * log. Nothing of it goes through java.util.logging or the System.Logger the JDK's server shares
 * with the host's own servers.
 */
public final class PrometheusEndpoint implements AutoCloseable {

    /** The name of the endpoint's accepting thread, whose death (it catches what it can) ends the endpoint. */
    public static final String ACCEPTING_THREAD = MechThreads.MECH_PREFIX + "prometheus";

    private final HttpServer server;

    private PrometheusEndpoint(final HttpServer server) {
        this.server = server;
    }

    /**
     * Starts serving.
     *
     * @param settings where and how to serve
     * @param sources  the families to expose; the endpoint adds its own {@code mech_exporter_client_errors_total}
     * @param warnings told, in one line, why the endpoint could not start, that it is open beyond
     *                 loopback, or that a collection failed (once)
     * @param heapRoom whether the host's heap has room to set the scrapes up in (see {@link MetricsScrapes}); must not allocate
     * @return the running endpoint, or null when it could not start
     */
    public static PrometheusEndpoint start(final ExporterSettings settings, final List<MetricFamilies> sources,
                                           final Consumer<String> warnings, final BooleanSupplier heapRoom) {
        final String where = settings.host() + ":" + settings.port();
        final ClientErrors errors = new ClientErrors();
        try {
            final String password = settings.authenticated() ? secret(settings.passwordFile()) : null;
            final SSLContext tls = settings.keystore() == null ? null : tls(settings.keystore(), secret(settings.keystorePassword()));
            final InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
            if (address.isUnresolved()) {
                throw new UnknownHostException(settings.host());
            }
            final List<MetricFamilies> all = new ArrayList<>(sources);
            all.add(errors);
            final EndpointRoutes routes = new EndpointRoutes(new MetricsScrapes(all, settings.jvmMetrics(), warnings, heapRoom),
                settings.authenticated() ? settings.user() : null, password);
            final HttpServer server = HttpServer.start(address, tls, routes, errors, ACCEPTING_THREAD);
            try {
                final String exposed = exposure(settings, new InetSocketAddress(address.getAddress(), server.port()));
                if (exposed != null) {
                    warnings.accept(exposed);
                }
                return new PrometheusEndpoint(server);
            } catch (final OutOfMemoryError full) {
                // the caller starts the endpoint again once the heap has room: the port must be free for it
                server.close();
                throw full;
            }
        } catch (final IOException | GeneralSecurityException | RuntimeException | LinkageError e) {
            warnings.accept("cannot serve /metrics on " + where + " (" + e + "); recording and logging go on");
            return null;
        }
    }

    /**
     * The warning for an endpoint that anyone who can reach the address may read, or null. What
     * /metrics tells (the host's class names and call sites, its JVM's version and memory) is for
     * the host's operators, so serving it beyond loopback is a choice to make knowingly, with basic auth.
     *
     * @param settings how the endpoint is served
     * @param bound    the address and port it is bound to
     * @return one line, or null when the address is loopback or scrapes must authenticate
     */
    static String exposure(final ExporterSettings settings, final InetSocketAddress bound) {
        final InetAddress address = bound.getAddress();
        if (address.isLoopbackAddress() || settings.authenticated()) {
            return null;
        }
        return "/metrics on " + settings.host() + ":" + bound.getPort() + " is open to anyone who can reach "
            + (address.isAnyLocalAddress() ? "any interface" : "that address")
            + " and tells the host's class names and call sites; set prometheus.user and prometheus.password-file to require basic auth";
    }

    /** Connections being served or waiting for a thread, for tests. */
    int busyExchanges() {
        return server.busy();
    }

    /** Serving threads started, for tests. */
    int scrapeThreads() {
        return server.threads();
    }

    private static String secret(final Path file) throws IOException {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || lines.get(0).isEmpty()) {
            throw new IOException(file + " is empty; its first line must hold the secret");
        }
        return lines.get(0);
    }

    private static SSLContext tls(final Path keystore, final String password) throws IOException, GeneralSecurityException {
        final KeyStore store = KeyStore.getInstance(keystore.toFile(), password.toCharArray());
        final KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, password.toCharArray());
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    /** The port served, useful when port 0 asked for any free one. */
    public int port() {
        return server.port();
    }

    /** Stops serving: closes every connection and ends the endpoint's threads. */
    @Override
    public void close() {
        server.close();
    }
}
