package io.mech.exporter;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * {@code /metrics}: client_java's scrape handler (content negotiation, gzip, {@code name[]}
 * filters) on mech's registry, run under the deadlines of {@link ScrapeThreads}, except for the
 * scrapes that ask for protobuf, which {@link ProtobufScrapes} answers in the same way without
 * protobuf's runtime. Called by the JDK's server on a scrape thread, several at once.
 */
final class ScrapeHandler implements HttpHandler {

    private final PrometheusScrapeHandler scrapes;
    private final ProtobufScrapes protobuf;
    /** Run once, before the first scrape is answered; null once it has run. Written under {@code this}. */
    private volatile Runnable firstScrape;
    private final ClientErrors errors;
    private final Consumer<String> warnings;
    private final AtomicBoolean warned = new AtomicBoolean();

    /**
     * @param scrapes     client_java's handler on mech's registry and configuration
     * @param protobuf    the protobuf scrapes on the same registry and configuration
     * @param firstScrape what to set up before the first scrape is answered (client_java's JVM metrics)
     * @param errors   where vanished clients are counted
     * @param warnings told once, in one line, when a collection fails; later failures answer 500 silently
     */
    ScrapeHandler(final PrometheusScrapeHandler scrapes, final ProtobufScrapes protobuf, final Runnable firstScrape,
                  final ClientErrors errors, final Consumer<String> warnings) {
        this.scrapes = scrapes;
        this.protobuf = protobuf;
        this.firstScrape = firstScrape;
        this.errors = errors;
        this.warnings = warnings;
    }

    @Override
    public void handle(final HttpExchange exchange) throws IOException {
        ScrapeThreads.collecting();
        setUpOnce();
        final ScrapeExchange scrape = new ScrapeExchange(exchange, errors);
        if (protobuf.answers(scrape.getRequest())) {
            protobuf.handleRequest(scrape);
        } else {
            scrapes.handleRequest(scrape);
        }
        final RuntimeException failure = scrape.failure();
        if (failure != null && warned.compareAndSet(false, true)) {
            warnings.accept("a scrape of /metrics failed (" + failure + ") and answered 500; later failures are not reported");
        }
    }

    /** Every scrape passes here: the first runs the set-up, the ones beside it wait for it, later ones read one volatile. */
    private void setUpOnce() {
        if (firstScrape == null) {
            return;
        }
        synchronized (this) {
            final Runnable setUp = firstScrape;
            if (setUp != null) {
                firstScrape = null;
                try {
                    setUp.run();
                } catch (final RuntimeException | LinkageError e) {
                    warnings.accept("client_java's JVM metrics are not served (" + e + "); mech's own metrics are");
                }
            }
        }
    }
}
