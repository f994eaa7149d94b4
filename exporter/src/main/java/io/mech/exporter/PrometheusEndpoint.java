package io.mech.exporter;

import com.sun.net.httpserver.Authenticator;
import io.mech.probes.MechThreads;
import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * mech's /metrics endpoint: the JDK's HTTP server serving mech's own client_java registry and
 * configuration, so it neither reads nor disturbs the host's client_java.
 *
 * <p>Guarantees: starting never throws; a port in use or an unreadable secret yields one warning
 * and no endpoint. An endpoint bound beyond loopback without authentication starts, with one
 * warning. Every thread it starts is a daemon whose name begins with {@code mech-}.
 *
 * <p>The endpoint lives in the host's process, so a client must not be able to hurt the host
 * through it: exchanges run on a few threads of their own under read and write deadlines
 * ({@link ScrapeThreads}), and a slow, silent or vanished client costs one count in
 * {@code mech_exporter_client_errors_total} ({@link ClientErrors}), never a line in the host's
 * log. That is why mech wires the JDK's server itself rather than through client_java's
 * HTTPServer, whose exchange adapter logs every failed response at SEVERE, stack trace and all,
 * through java.util.logging. The JDK's server logs through the System.Logger
 * {@code com.sun.net.httpserver}, which it shares with the host's own servers: mech leaves it
 * alone. It logs connection failures only at DEBUG and TRACE, which the JDK's default logging
 * configuration drops; a host that turns that logger up sees mech's exchanges with its own.
 */
public final class PrometheusEndpoint implements AutoCloseable {

    /**
     * The JDK's HTTP server leaves Nagle's algorithm on. A scraper that keeps its connection
     * alive, as Prometheus does, then waits for a delayed ACK on every response: measured here,
     * 48 ms a scrape instead of 4 to 7 ms. The property is read once, when the JDK's server
     * configuration first loads, and is set only when the host has not set it.
     */
    private static final String NO_DELAY = "sun.net.httpserver.nodelay";

    private final HttpServer server;
    private final ScrapeThreads threads;

    private PrometheusEndpoint(final HttpServer server, final ScrapeThreads threads) {
        this.server = server;
        this.threads = threads;
    }

    /**
     * Starts serving.
     *
     * @param settings where and how to serve
     * @param sources  the families to expose; the endpoint adds its own {@code mech_exporter_client_errors_total}
     * @param warnings told, in one line, why the endpoint could not start, that it is open beyond
     *                 loopback, or that a collection failed (once)
     * @return the running endpoint, or null when it could not start
     */
    public static PrometheusEndpoint start(final ExporterSettings settings, final List<MetricFamilies> sources,
                                           final Consumer<String> warnings) {
        final String where = settings.host() + ":" + settings.port();
        final ClientErrors errors = new ClientErrors();
        ScrapeThreads executor = null;
        try {
            if (System.getProperty(NO_DELAY) == null) {
                System.setProperty(NO_DELAY, "true");
            }
            final Authenticator authenticator = settings.authenticated()
                ? basicAuth(settings.user(), secret(settings.passwordFile())) : null;
            final SSLContext tls = settings.keystore() == null ? null : tls(settings.keystore(), secret(settings.keystorePassword()));
            final InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
            if (address.isUnresolved()) {
                throw new UnknownHostException(settings.host());
            }
            final List<MetricFamilies> all = new ArrayList<>(sources);
            all.add(errors);
            final Map<String, HttpHandler> handlers = new LinkedHashMap<>();
            handlers.put("/metrics", new DeferredScrapes(() -> scrapes(all, settings.jvmMetrics(), errors, warnings), errors));
            handlers.put("/-/healthy", new Healthy(errors));
            final ScrapeThreads threads = new ScrapeThreads(errors);
            executor = threads;
            final HttpServer server = inGroupOfMech(() -> serve(address, tls, threads, handlers, authenticator));
            final String exposed = exposure(settings, server.getAddress());
            if (exposed != null) {
                warnings.accept(exposed);
            }
            return new PrometheusEndpoint(server, executor);
        } catch (final IOException | GeneralSecurityException | RuntimeException | LinkageError e) {
            return refused(warnings, where, e.toString(), executor);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return refused(warnings, where, "interrupted while starting", executor);
        }
    }

    /**
     * The scrape handler on mech's registry, made at the first scrape ({@link DeferredScrapes}).
     * client_java's JVM metrics load about a hundred classes more and cost 100 ms: they are
     * registered as that first scrape begins to collect.
     */
    private static HttpHandler scrapes(final List<MetricFamilies> families, final boolean jvmMetrics, final ClientErrors errors,
                                       final Consumer<String> warnings) {
        final PrometheusProperties config = IsolatedProperties.create();
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new MechCollector(families));
        final Runnable firstScrape = jvmMetrics ? () -> JvmFamilies.register(config, registry) : () -> { };
        return new ScrapeHandler(new PrometheusScrapeHandler(config, registry), new ProtobufScrapes(config, registry), firstScrape,
            errors, warnings);
    }

    private static PrometheusEndpoint refused(final Consumer<String> warnings, final String where, final String why,
                                              final ScrapeThreads executor) {
        if (executor != null) {
            executor.shutdown();
        }
        warnings.accept("cannot serve /metrics on " + where + " (" + why + "); recording and logging go on");
        return null;
    }

    /** Binds, sets the handlers up and starts; a server that fails on the way is stopped, so its port is free again. */
    private static HttpServer serve(final InetSocketAddress address, final SSLContext tls, final ScrapeThreads threads,
                                    final Map<String, HttpHandler> handlers, final Authenticator authenticator)
        throws IOException {
        final HttpServer server = tls == null ? HttpServer.create(address, 0) : HttpsServer.create(address, 0);
        try {
            if (tls != null) {
                ((HttpsServer) server).setHttpsConfigurator(new HttpsConfigurator(tls));
            }
            server.setExecutor(threads);
            for (final Map.Entry<String, HttpHandler> handler : handlers.entrySet()) {
                final HttpContext context = server.createContext(handler.getKey(), handler.getValue());
                if (authenticator != null) {
                    context.setAuthenticator(authenticator);
                }
            }
            server.start();
            return server;
        } catch (final RuntimeException | Error e) {
            // an OutOfMemoryError too: mech tries again once the heap has room, and the port must be free then
            server.stop(0);
            throw e;
        }
    }

    /**
     * Makes and starts the server on a daemon thread of a group of mech's own. The JDK's server
     * makes its threads (a timer when it is made, the dispatcher when it starts) on the calling
     * thread, which passes on its daemon status and its group: a daemon, so they never hold the
     * host's exit, and mech's group, so they are told apart from the host's threads, which start
     * meanwhile too, and renamed to say they are mech's.
     */
    private static HttpServer inGroupOfMech(final Callable<HttpServer> make) throws IOException, InterruptedException {
        final ThreadGroup group = new ThreadGroup("mech-prometheus");
        final FutureTask<HttpServer> task = new FutureTask<>(make);
        final Thread starter = new Thread(group, task, "mech-prometheus-start");
        starter.setDaemon(true);
        starter.start();
        final HttpServer server;
        try {
            server = task.get();
        } catch (final ExecutionException e) {
            final Throwable cause = e.getCause();
            if (cause instanceof IOException) {
                throw (IOException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new IllegalStateException(cause);
        }
        final Thread[] members = new Thread[group.activeCount() + 4];
        final int count = group.enumerate(members);
        for (int i = 0; i < count; i++) {
            if (!MechThreads.isMechs(members[i].getName())) {
                members[i].setName(MechThreads.MECH_PREFIX + "prometheus-" + members[i].getName());
            }
        }
        return server;
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

    /** Exchanges running or waiting for a thread, for tests. */
    int busyExchanges() {
        return threads.busy();
    }

    /** Threads serving exchanges now, for tests. */
    int scrapeThreads() {
        return threads.size();
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
        return server.getAddress().getPort();
    }

    /** Stops serving: closes every connection, then ends the endpoint's threads. */
    @Override
    public void close() {
        server.stop(0);
        threads.shutdown();
    }

    /** {@code /-/healthy}: 200 while the endpoint serves, for probes that must not scrape. */
    private static final class Healthy implements HttpHandler {

        private static final byte[] BODY = "mech is serving\n".getBytes(StandardCharsets.US_ASCII);

        private final ClientErrors errors;

        Healthy(final ClientErrors errors) {
            this.errors = errors;
        }

        @Override
        public void handle(final HttpExchange exchange) {
            ScrapeThreads.responding();
            try {
                final boolean head = exchange.getRequestMethod().equals("HEAD");
                exchange.sendResponseHeaders(200, head ? -1 : BODY.length);
                if (!head) {
                    exchange.getResponseBody().write(BODY);
                }
            } catch (final IOException gone) {
                ScrapeExchange.disconnected(errors);
            } finally {
                exchange.close();
            }
        }
    }
}
