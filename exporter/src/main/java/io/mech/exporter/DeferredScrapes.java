package io.mech.exporter;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * {@code /metrics} built at its first scrape: client_java's configuration, registry and
 * exposition formats load a few hundred classes, which a host that is never scraped in its first
 * seconds (a batch job, a test, a fresh instance before Prometheus finds it) need not pay for.
 * A build that fails answers that scrape 500, and the next scrape builds again.
 *
 * <p>Thread contract: the server's scrape threads call {@link #handle}, several at once; the
 * first builds under this object's monitor and publishes the handler through a volatile field.
 */
final class DeferredScrapes implements HttpHandler {

    private final Supplier<HttpHandler> build;
    private final ClientErrors errors;
    private volatile HttpHandler built;

    /**
     * @param build  makes the scrape handler, once
     * @param errors where a client gone before the 500 is counted
     */
    DeferredScrapes(final Supplier<HttpHandler> build, final ClientErrors errors) {
        this.build = build;
        this.errors = errors;
    }

    @Override
    public void handle(final HttpExchange exchange) throws IOException {
        HttpHandler handler = built;
        if (handler == null) {
            // no deadline while building: an interrupt would close channels that are not the client's
            ScrapeThreads.collecting();
            try {
                handler = handler();
            } catch (final RuntimeException | LinkageError | OutOfMemoryError e) {
                failed(exchange);
                return;
            }
        }
        handler.handle(exchange);
    }

    private synchronized HttpHandler handler() {
        if (built == null) {
            built = build.get();
        }
        return built;
    }

    private void failed(final HttpExchange exchange) {
        ScrapeThreads.responding();
        try (exchange) {
            exchange.sendResponseHeaders(500, -1);
        } catch (final IOException gone) {
            ScrapeExchange.disconnected(errors);
        }
    }
}
