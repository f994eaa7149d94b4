package io.mech.exporter;

import com.sun.net.httpserver.HttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * One scrape as client_java's scrape handler sees it, which does the content negotiation,
 * compression and name filtering, or as {@link ProtobufScrapes} sees it, which does them for
 * protobuf. Unlike client_java's own adapter, this one never logs: a client that vanishes
 * mid-response is counted in {@link ClientErrors}, and a failed collection answers 500 with one
 * line and is kept for the endpoint to report once. Logging either through
 * java.util.logging would write into the host's log, at SEVERE with a stack trace.
 *
 * <p>An exchange made to keep its answer copies the body of a 200 as it is sent, for
 * {@link RecentScrapes}.
 *
 * <p>Used on one scrape thread, by one call of either handler.
 */
final class ScrapeExchange implements PrometheusHttpExchange {

    private final HttpExchange exchange;
    private final ClientErrors errors;
    private final Request request = new Request();
    private final Response response = new Response();
    private boolean responded;
    private RuntimeException failure;
    /** The body of a 200 as sent, when the answer is kept; null otherwise. */
    private ByteArrayOutputStream copy;
    /** Whether the connection failed: the copy then holds what was written before, not the whole answer. */
    private boolean broken;
    private final boolean keep;
    private String contentType;
    private String contentEncoding;

    /** @param keep whether to copy the answer for {@link #answer} */
    ScrapeExchange(final HttpExchange exchange, final ClientErrors errors, final boolean keep) {
        this.exchange = exchange;
        this.errors = errors;
        this.keep = keep;
    }

    /**
     * The whole answer this exchange sent, to answer again; null when it was not kept, not a 200,
     * or failed on the way.
     */
    RecentScrapes.Answer answer(final String accept, final String encoding, final long madeNanos) {
        return copy == null || broken || failure != null || contentType == null || copy.size() == 0 ? null
            : new RecentScrapes.Answer(accept, encoding, madeNanos, contentType, contentEncoding, copy.toByteArray());
    }

    /** @return the exception that failed the collection, or null */
    RuntimeException failure() {
        return failure;
    }

    @Override
    public PrometheusHttpRequest getRequest() {
        return request;
    }

    @Override
    public PrometheusHttpResponse getResponse() {
        return response;
    }

    /** The connection failed while the response was written: the client went away, or its deadline closed it. */
    @Override
    public void handleException(final IOException e) {
        broken = true;
        disconnected(errors);
    }

    /** Collecting or formatting failed: mech's fault, not the client's. */
    @Override
    public void handleException(final RuntimeException e) {
        failure = e;
        if (responded) {
            return;
        }
        final byte[] body = ("mech could not collect its metrics: " + e.getClass().getName() + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            final OutputStream out = response.sendHeadersAndGetBody(500, body.length);
            out.write(body);
        } catch (final IOException gone) {
            disconnected(errors);
        }
    }

    /** Counts a failed connection once: one whose deadline closed it was counted as a timeout. */
    static void disconnected(final ClientErrors errors) {
        if (!ScrapeThreads.timedOut()) {
            errors.count(ClientErrors.Reason.DISCONNECT);
        }
    }

    @Override
    public void close() {
        exchange.close();
    }

    private final class Request implements PrometheusHttpRequest {

        @Override
        public String getQueryString() {
            return exchange.getRequestURI().getRawQuery();
        }

        @Override
        public Enumeration<String> getHeaders(final String name) {
            final List<String> values = exchange.getRequestHeaders().get(name);
            return values == null ? Collections.emptyEnumeration() : Collections.enumeration(values);
        }

        @Override
        public String getMethod() {
            return exchange.getRequestMethod();
        }

        @Override
        public String getRequestPath() {
            return exchange.getRequestURI().getRawPath();
        }
    }

    private final class Response implements PrometheusHttpResponse {

        @Override
        public void setHeader(final String name, final String value) {
            exchange.getResponseHeaders().set(name, value);
            if (name.equalsIgnoreCase("Content-Type")) {
                contentType = value;
            } else if (name.equalsIgnoreCase("Content-Encoding")) {
                contentEncoding = value;
            }
        }

        /**
         * Sends the headers. A HEAD response has no body whatever the caller says: client_java's
         * handler passes a length of 0 for a compressed one, and the JDK's server logs a WARNING,
         * into the host's log, when it is given any length for a HEAD response, and then fails
         * the compressed bytes written to it, which would count the client as gone. What is
         * written for a HEAD request goes nowhere.
         *
         * @param contentLength as the JDK's server takes it: the length, 0 for chunked, -1 for no body
         */
        @Override
        public OutputStream sendHeadersAndGetBody(final int status, final int contentLength) throws IOException {
            if (responded) {
                throw new IOException("the response of this scrape was sent already");
            }
            responded = true;
            ScrapeThreads.responding();
            final boolean head = exchange.getRequestMethod().equals("HEAD");
            exchange.sendResponseHeaders(status, head ? -1 : contentLength);
            if (head) {
                return OutputStream.nullOutputStream();
            }
            if (!keep || status != 200) {
                return exchange.getResponseBody();
            }
            final ByteArrayOutputStream body = new ByteArrayOutputStream(Math.max(contentLength, 4096));
            copy = body;
            return new FilterOutputStream(exchange.getResponseBody()) {
                @Override
                public void write(final int b) throws IOException {
                    out.write(b);
                    body.write(b);
                }

                @Override
                public void write(final byte[] b, final int off, final int len) throws IOException {
                    out.write(b, off, len);
                    body.write(b, off, len);
                }
            };
        }
    }
}
