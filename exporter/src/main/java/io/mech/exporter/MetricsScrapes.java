package io.mech.exporter;

import io.mech.exporter.http.Request;
import io.mech.exporter.http.Response;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.common.PrometheusScrapeHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * {@code /metrics}: client_java's scrape handler (content negotiation, gzip, {@code name[]}
 * filters) on mech's registry, except for the scrapes that ask for protobuf, which
 * {@link ProtobufScrapes} answers in the same way without protobuf's runtime. A plain GET that
 * comes within {@link RecentScrapes#FRESH_NANOS} of the last one asked in the same way is
 * answered what that one was, without collecting.
 *
 * <p>Built at the first scrape: client_java's configuration, registry, exposition formats and JVM
 * metrics load a few hundred classes and cost some 100 ms, which a host that is never scraped in
 * its first seconds (a batch job, a test, a fresh instance before Prometheus finds it) need not
 * pay. A build that fails answers that scrape 500, and the next scrape builds again. None is
 * tried while the host's heap has no room (it answers 503): the build is the first to initialise
 * JDK classes the host shares ({@code OperatingSystemImpl}, the cgroup metrics), and a class whose
 * initialiser meets a full heap stays broken for the JVM's life, the host's use of it too.
 *
 * <p>Thread contract: the server's serving threads call {@link #answer}, several at once; the
 * first builds under this object's monitor and publishes the handlers through a volatile field.
 */
final class MetricsScrapes {

    /** The answer while the heap has no room: made with the class, where the heap has room. */
    private static final byte[] HEAP_FULL = "the host's heap is full: mech sets its metrics up once it has room\n"
        .getBytes(StandardCharsets.UTF_8);

    private final List<MetricFamilies> families;
    private final boolean jvmMetrics;
    private final Consumer<String> warnings;
    private final BooleanSupplier heapRoom;
    private final AtomicBoolean warned = new AtomicBoolean();
    private final RecentScrapes recent = new RecentScrapes();
    private volatile Built built;

    /** client_java's handler and mech's protobuf scrapes on one registry and configuration. */
    private record Built(PrometheusScrapeHandler text, ProtobufScrapes protobuf) {
    }

    /**
     * @param families   every family served
     * @param jvmMetrics whether client_java's JVM metrics are served too
     * @param warnings   told once, in one line, when a collection fails; later failures answer 500 silently
     * @param heapRoom   whether the host's heap has room to build in now; asked until the build is done
     */
    MetricsScrapes(final List<MetricFamilies> families, final boolean jvmMetrics, final Consumer<String> warnings,
                   final BooleanSupplier heapRoom) {
        this.families = families;
        this.jvmMetrics = jvmMetrics;
        this.warnings = warnings;
        this.heapRoom = heapRoom;
    }

    /** Answers one scrape. */
    void answer(final Request request, final Response response) throws IOException {
        final Built scrapes;
        try {
            scrapes = built();
        } catch (final RuntimeException | LinkageError | OutOfMemoryError e) {
            failed(response, "mech could not set its metrics up: " + e.getClass().getName());
            return;
        }
        if (scrapes == null) {
            response.send(503, "text/plain; charset=utf-8", null, HEAP_FULL, HEAP_FULL.length);
            return;
        }
        // a query (name[], debug) or a HEAD is answered afresh: only a whole GET answer is kept
        final boolean plain = request.method().equals("GET") && request.query() == null;
        final String accept = request.header("Accept");
        final String encoding = request.header("Accept-Encoding");
        final long now = System.nanoTime();
        if (plain) {
            final RecentScrapes.Answer again = recent.find(accept, encoding, now);
            if (again != null) {
                response.send(200, again.contentType(), again.contentEncoding(), again.body(), again.body().length);
                return;
            }
        }
        final ScrapeExchange scrape = new ScrapeExchange(request);
        if (scrapes.protobuf().answers(scrape.getRequest())) {
            scrapes.protobuf().handleRequest(scrape);
        } else {
            scrapes.text().handleRequest(scrape);
        }
        final RuntimeException failure = scrape.failure();
        if (failure != null && warned.compareAndSet(false, true)) {
            warnings.accept("a scrape of /metrics failed (" + failure + ") and answered 500; later failures are not reported");
        }
        final RecentScrapes.Answer answer = plain ? scrape.answer(accept, encoding, now) : null;
        if (answer != null) {
            recent.keep(answer);
            response.send(200, answer.contentType(), answer.contentEncoding(), answer.body(), answer.body().length);
        } else {
            scrape.send(response);
        }
    }

    /** Answers 500 with one line saying what failed: a scrape that failed is never a 200 cut short. */
    static void failed(final Response response, final String line) throws IOException {
        final byte[] text = (line + "\n").getBytes(StandardCharsets.UTF_8);
        response.send(500, "text/plain; charset=utf-8", null, text, text.length);
    }

    /** @return the handlers; null while none is built and the heap has no room */
    private Built built() {
        final Built ready = built;
        return ready != null ? ready : heapRoom.getAsBoolean() ? build() : null;
    }

    private synchronized Built build() {
        if (built == null) {
            final PrometheusProperties config = IsolatedProperties.create();
            final PrometheusRegistry registry = new PrometheusRegistry();
            registry.register(new MechCollector(families));
            if (jvmMetrics) {
                try {
                    JvmFamilies.register(config, registry);
                } catch (final RuntimeException | LinkageError e) {
                    warnings.accept("client_java's JVM metrics are not served (" + e + "); mech's own metrics are");
                }
            }
            built = new Built(new PrometheusScrapeHandler(config, registry), new ProtobufScrapes(config, registry));
        }
        return built;
    }
}
