package io.mech.exporter;

import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.config.ExporterFilterProperties;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import io.prometheus.metrics.model.registry.MetricNameFilter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Enumeration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.zip.GZIPOutputStream;

/**
 * The scrapes that client_java's scrape handler would answer in protobuf, answered with
 * {@link ProtobufExposition} instead (see there why), and otherwise as that handler answers them:
 * the families the {@code name[]} parameters name, less those the configuration excludes; names
 * escaped as the Accept header asks; gzip when the scraper accepts it, else the length up front.
 * A HEAD request is answered as a GET, and mech's server sends the header fields alone. One
 * difference: {@code ?debug=prometheus-protobuf}, a human-readable dump that needs protobuf's
 * runtime, is answered 500 with a line saying so, as client_java answers it without that runtime.
 *
 * <p>Shared by the serving threads: it holds the configuration, which nothing changes, and the
 * last response's size, a hint for the next buffer that any thread may overwrite.
 */
final class ProtobufScrapes {

    /** The value of {@code debug} that asks for the protobuf dump. */
    private static final String DEBUG_PROTOBUF = "prometheus-protobuf";

    private final PrometheusRegistry registry;
    /** The configuration's name filter, or null when it filters nothing. */
    private final Predicate<String> configured;
    private final boolean preferUncompressed;
    private final AtomicInteger lastSize = new AtomicInteger(16 * 1024);

    /**
     * @param config   the configuration client_java's handler was given, for its name filter and compression preference
     * @param registry the registry client_java's handler scrapes
     */
    ProtobufScrapes(final PrometheusProperties config, final PrometheusRegistry registry) {
        this.registry = registry;
        this.configured = configuredFilter(config.getExporterFilterProperties());
        this.preferUncompressed = config.getExporterHttpServerProperties().isPreferUncompressedResponse();
    }

    /**
     * Whether this answers the request rather than client_java: when it asks for the protobuf
     * format, by its Accept header or for the debug dump. A query client_java cannot parse is left
     * to client_java, which answers it as it always has.
     */
    boolean answers(final PrometheusHttpRequest request) {
        final String debug;
        try {
            debug = request.getParameter("debug");
        } catch (final IllegalArgumentException malformed) {
            return false;
        }
        return debug == null ? ProtobufExposition.accepts(request.getHeader("Accept")) : debug.equals(DEBUG_PROTOBUF);
    }

    /**
     * Collects, encodes and sends; a failure goes to the exchange's handlers, and the exchange is
     * closed in any case, as client_java's handler does.
     */
    void handleRequest(final PrometheusHttpExchange exchange) throws IOException {
        try {
            final PrometheusHttpRequest request = exchange.getRequest();
            final PrometheusHttpResponse response = exchange.getResponse();
            if (request.getParameter("debug") != null) {
                debugUnavailable(response);
                return;
            }
            final MetricSnapshots snapshots = scrape(request);
            final ProtobufBuffer body = new ProtobufBuffer(lastSize.get() + 1024);
            ProtobufExposition.write(snapshots, EscapingScheme.fromAcceptHeader(request.getHeader("Accept")), body);
            lastSize.set(body.size());
            response.setHeader("Content-Type", ProtobufExposition.CONTENT_TYPE);
            send(request, response, body);
        } catch (final IOException e) {
            exchange.handleException(e);
        } catch (final RuntimeException e) {
            exchange.handleException(e);
        } finally {
            exchange.close();
        }
    }

    private void send(final PrometheusHttpRequest request, final PrometheusHttpResponse response,
                      final ProtobufBuffer body) throws IOException {
        final boolean gzip = gzip(request);
        if (gzip) {
            response.setHeader("Content-Encoding", "gzip");
        } else if (body.size() > 0) {
            response.setHeader("Content-Length", Integer.toString(body.size()));
        }
        if (gzip) {
            try (OutputStream out = new GZIPOutputStream(response.sendHeadersAndGetBody(200, 0))) {
                body.writeTo(out);
            }
        } else {
            try (OutputStream out = response.sendHeadersAndGetBody(200, body.size())) {
                body.writeTo(out);
            }
        }
    }

    private static void debugUnavailable(final PrometheusHttpResponse response) throws IOException {
        final byte[] message = ("debug=" + DEBUG_PROTOBUF + ": mech writes the protobuf format without protobuf's runtime, "
            + "which the human-readable dump needs. Valid values are 'openmetrics' and 'text'.\n").getBytes(StandardCharsets.UTF_8);
        response.setHeader("Content-Type", "text/plain; charset=utf-8");
        try (OutputStream out = response.sendHeadersAndGetBody(500, message.length)) {
            out.write(message);
        }
    }

    /** The registry's families that the request's {@code name[]} parameters and the configuration admit. */
    private MetricSnapshots scrape(final PrometheusHttpRequest request) {
        final String[] names = request.getParameterValues("name[]");
        Predicate<String> filter = configured;
        if (names != null && names.length > 0) {
            final Predicate<String> requested = MetricNameFilter.builder().nameMustBeEqualTo(names).build();
            filter = configured == null ? requested : requested.and(configured);
        }
        return filter == null ? registry.scrape(request) : registry.scrape(filter, request);
    }

    private static Predicate<String> configuredFilter(final ExporterFilterProperties filter) {
        if (filter.getAllowedMetricNames() == null && filter.getExcludedMetricNames() == null
            && filter.getAllowedMetricNamePrefixes() == null && filter.getExcludedMetricNamePrefixes() == null) {
            return null;
        }
        return MetricNameFilter.builder()
            .nameMustBeEqualTo(filter.getAllowedMetricNames())
            .nameMustNotBeEqualTo(filter.getExcludedMetricNames())
            .nameMustStartWith(filter.getAllowedMetricNamePrefixes())
            .nameMustNotStartWith(filter.getExcludedMetricNamePrefixes())
            .build();
    }

    /** Whether the scraper accepts gzip, by client_java's test: any Accept-Encoding value listing it. */
    private boolean gzip(final PrometheusHttpRequest request) {
        if (preferUncompressed) {
            return false;
        }
        final Enumeration<String> headers = request.getHeaders("Accept-Encoding");
        while (headers != null && headers.hasMoreElements()) {
            for (final String encoding : headers.nextElement().split(",")) {
                if (encoding.trim().equalsIgnoreCase("gzip")) {
                    return true;
                }
            }
        }
        return false;
    }
}
