package io.mech.exporter;

import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpsConfigurator;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * mech's /metrics endpoint: client_java's HTTP server on its own registry and configuration,
 * so it neither reads nor disturbs the host's client_java.
 *
 * <p>Guarantees: starting never throws; a port in use or an unreadable secret yields one warning
 * and no endpoint. An endpoint bound beyond loopback without authentication starts, with one
 * warning. Every thread it starts is a daemon whose name begins with {@code mech-}.
 */
public final class PrometheusEndpoint implements AutoCloseable {

    private static final int SCRAPE_THREADS = 2;

    /**
     * The JDK's HTTP server leaves Nagle's algorithm on. A scraper that keeps its connection
     * alive, as Prometheus does, then waits for a delayed ACK on every response: measured here,
     * 48 ms a scrape instead of 4 to 7 ms. The property is read once, when the JDK's server
     * configuration first loads, and is set only when the host has not set it.
     */
    private static final String NO_DELAY = "sun.net.httpserver.nodelay";
    /** The name sun.net.httpserver.ServerImpl gives its dispatcher thread (JDK 17 to 25). */
    private static final String JDK_DISPATCHER = "HTTP-Dispatcher";

    private final HTTPServer server;

    private PrometheusEndpoint(final HTTPServer server) {
        this.server = server;
    }

    /**
     * Starts serving.
     *
     * @param settings where and how to serve
     * @param sources  the families to expose
     * @param warnings told, in one line, why the endpoint could not start
     * @return the running endpoint, or null when it could not start
     */
    public static PrometheusEndpoint start(final ExporterSettings settings, final List<MetricFamilies> sources,
                                           final Consumer<String> warnings) {
        final String where = settings.host() + ":" + settings.port();
        try {
            if (System.getProperty(NO_DELAY) == null) {
                System.setProperty(NO_DELAY, "true");
            }
            final PrometheusProperties config = IsolatedProperties.create();
            final PrometheusRegistry registry = new PrometheusRegistry();
            registry.register(new MechCollector(sources));
            if (settings.jvmMetrics()) {
                JvmMetrics.builder(config).register(registry);
            }
            final ExecutorService scrapes = Executors.newFixedThreadPool(SCRAPE_THREADS, new DaemonThreads());
            final HTTPServer.Builder builder = HTTPServer.builder(config).hostname(settings.host()).port(settings.port())
                .registry(registry).executorService(scrapes);
            if (!settings.user().isEmpty()) {
                builder.authenticator(basicAuth(settings.user(), secret(settings.passwordFile())));
            }
            if (settings.keystore() != null) {
                builder.httpsConfigurator(new HttpsConfigurator(tls(settings.keystore(), secret(settings.keystorePassword()))));
            }
            final Set<Thread> before = new HashSet<>(liveThreads());
            final HTTPServer server;
            try {
                server = builder.buildAndStart();
            } catch (final IOException e) {
                scrapes.shutdownNow();
                throw e;
            }
            nameNewThreads(before);
            final String exposed = exposure(settings, new InetSocketAddress(InetAddress.getByName(settings.host()), server.getPort()));
            if (exposed != null) {
                warnings.accept(exposed);
            }
            return new PrometheusEndpoint(server);
        } catch (final IOException | GeneralSecurityException | RuntimeException | LinkageError e) {
            warnings.accept("cannot serve /metrics on " + where + " (" + e + "); recording and logging go on");
            return null;
        }
    }

    /**
     * The warning for an endpoint that anyone who can reach the address may read, or null. What
     * /metrics tells (class names, call sites, thread names, the JVM's paths) is for the host's
     * operators, so serving it beyond loopback is a choice to make knowingly, with basic auth.
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
            + " and tells class names, call sites and paths; set prometheus.user and prometheus.password-file to require basic auth";
    }

    /**
     * The JDK's HTTP server names its dispatcher itself; prefix it so every thread of mech says so.
     * Only a new thread of that name is mech's: the host's own threads start meanwhile too.
     */
    private static void nameNewThreads(final Set<Thread> before) {
        for (final Thread thread : liveThreads()) {
            if (!before.contains(thread) && thread.getName().equals(JDK_DISPATCHER)) {
                thread.setName("mech-prometheus-" + thread.getName());
            }
        }
    }

    /**
     * The live threads, listed from the root thread group. Thread.getAllStackTraces() would do,
     * but it makes every thread of the host walk and copy its own stack.
     */
    private static List<Thread> liveThreads() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        Thread[] threads = new Thread[root.activeCount() + 16];
        int count;
        while ((count = root.enumerate(threads, true)) == threads.length) {
            threads = new Thread[threads.length * 2];
        }
        return Arrays.asList(threads).subList(0, count);
    }

    private static String secret(final Path file) throws IOException {
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || lines.get(0).isEmpty()) {
            throw new IOException(file + " is empty; its first line must hold the secret");
        }
        return lines.get(0);
    }

    private static BasicAuthenticator basicAuth(final String user, final String password) {
        final byte[] expected = (user + ":" + password).getBytes(StandardCharsets.UTF_8);
        return new BasicAuthenticator("mech") {
            @Override
            public boolean checkCredentials(final String givenUser, final String givenPassword) {
                return MessageDigest.isEqual(expected, (givenUser + ":" + givenPassword).getBytes(StandardCharsets.UTF_8));
            }
        };
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
        return server.getPort();
    }

    /** Stops serving. */
    @Override
    public void close() {
        server.close();
    }
}
