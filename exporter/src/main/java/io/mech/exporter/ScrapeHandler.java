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
 * protobuf's runtime. A plain GET that comes within {@link RecentScrapes#FRESH_NANOS} of the last
 * one asked in the same way is answered what that one was. Called by the JDK's server on a scrape
 * thread, several at once.
 */
final class ScrapeHandler implements HttpHandler {

    private final PrometheusScrapeHandler scrapes;
    private final ProtobufScrapes protobuf;
    /** Run once, before the first scrape is answered; null once it has run. Written under {@code this}. */
    private volatile Runnable firstScrape;
    private final ClientErrors errors;
    private final Consumer<String> warnings;
    private final AtomicBoolean warned = new AtomicBoolean();
    private final RecentScrapes recent = new RecentScrapes();

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
        // a query (name[], debug) or a HEAD is answered afresh: only a whole GET answer is kept
        final boolean plain = exchange.getRequestMethod().equals("GET") && exchange.getRequestURI().getRawQuery() == null;
        final String accept = exchange.getRequestHeaders().getFirst("Accept");
        final String encoding = exchange.getRequestHeaders().getFirst("Accept-Encoding");
        final long now = System.nanoTime();
        if (plain) {
            final RecentScrapes.Answer again = recent.find(accept, encoding, now);
            if (again != null) {
                answerAgain(exchange, again);
                return;
            }
        }
        final ScrapeExchange scrape = new ScrapeExchange(exchange, errors, plain);
        if (protobuf.answers(scrape.getRequest())) {
            protobuf.handleRequest(scrape);
        } else {
            scrapes.handleRequest(scrape);
        }
        final RecentScrapes.Answer answer = scrape.answer(accept, encoding, now);
        if (answer != null) {
            recent.keep(answer);
        }
        final RuntimeException failure = scrape.failure();
        if (failure != null && warned.compareAndSet(false, true)) {
            warnings.accept("a scrape of /metrics failed (" + failure + ") and answered 500; later failures are not reported");
        }
    }

    private void answerAgain(final HttpExchange exchange, final RecentScrapes.Answer answer) {
        try (exchange) {
            exchange.getResponseHeaders().set("Content-Type", answer.contentType());
            if (answer.contentEncoding() != null) {
                exchange.getResponseHeaders().set("Content-Encoding", answer.contentEncoding());
            }
            ScrapeThreads.responding();
            exchange.sendResponseHeaders(200, answer.body().length);
            exchange.getResponseBody().write(answer.body());
        } catch (final IOException e) {
            ScrapeExchange.disconnected(errors);
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
