package io.mech.exporter;

import io.mech.exporter.http.Request;
import io.mech.exporter.http.Response;
import io.prometheus.metrics.exporter.common.PrometheusHttpExchange;
import io.prometheus.metrics.exporter.common.PrometheusHttpRequest;
import io.prometheus.metrics.exporter.common.PrometheusHttpResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Collections;
import java.util.Enumeration;

/**
 * One scrape as client_java's scrape handler sees it, which does the content negotiation,
 * compression and name filtering, or as {@link ProtobufScrapes} sees it, which does them for
 * protobuf. The answer is written into a buffer and sent whole by {@link #send}, with its length:
 * a failed collection then answers 500 however far it got, never a 200 cut short. Unlike
 * client_java's own adapters, this one never logs: logging through java.util.logging would
 * write into the host's log, at SEVERE with a stack trace.
 *
 * <p>Used on one serving thread, by one call of either handler.
 */
final class ScrapeExchange implements PrometheusHttpExchange {

    private final Request request;
    private final Adapted adapted = new Adapted();
    private final Body body = new Body();
    private int status;
    private String contentType;
    private String contentEncoding;
    private RuntimeException failure;

    ScrapeExchange(final Request request) {
        this.request = request;
    }

    @Override
    public PrometheusHttpRequest getRequest() {
        return adapted;
    }

    @Override
    public PrometheusHttpResponse getResponse() {
        return adapted;
    }

    /** Writing goes into a buffer, so it fails only if a handler's own stream does: the answer is then a 500. */
    @Override
    public void handleException(final IOException e) {
        handleException(new IllegalStateException(e));
    }

    /** Collecting or formatting failed: mech's fault, not the client's. */
    @Override
    public void handleException(final RuntimeException e) {
        failure = e;
    }

    /** Nothing to close: the answer goes out with {@link #send}. */
    @Override
    public void close() {
    }

    /** @return the exception that failed the collection, or null */
    RuntimeException failure() {
        return failure;
    }

    /**
     * The whole answer, to send and to answer again, or null when it is not a 200.
     *
     * @param accept    the Accept header it answers
     * @param encoding  the Accept-Encoding header it answers
     * @param madeNanos when it was collected
     */
    RecentScrapes.Answer answer(final String accept, final String encoding, final long madeNanos) {
        return failure != null || status != 200 || contentType == null ? null
            : new RecentScrapes.Answer(accept, encoding, madeNanos, contentType, contentEncoding, body.toByteArray());
    }

    /** Sends what the handler answered: a 500 naming the failure when collecting failed. */
    void send(final Response response) throws IOException {
        if (failure != null || contentType == null) {
            MetricsScrapes.failed(response, "mech could not collect its metrics: " + (failure == null ? "no answer" : failure.getClass().getName()));
            return;
        }
        response.send(status, contentType, contentEncoding, body.bytes(), body.size());
    }

    /** A buffer whose bytes are sent without a copy. */
    private static final class Body extends ByteArrayOutputStream {

        Body() {
            super(16 * 1024);
        }

        byte[] bytes() {
            return buf;
        }
    }

    /** The request as client_java reads it, and the response as it writes it. */
    private final class Adapted implements PrometheusHttpRequest, PrometheusHttpResponse {

        @Override
        public String getQueryString() {
            return request.query();
        }

        @Override
        public Enumeration<String> getHeaders(final String name) {
            return Collections.enumeration(request.headers(name));
        }

        /** HEAD is asked as a GET: client_java writes no body for a HEAD, and the server needs the body's length. */
        @Override
        public String getMethod() {
            return request.isHead() ? "GET" : request.method();
        }

        @Override
        public String getRequestPath() {
            return request.path();
        }

        @Override
        public void setHeader(final String name, final String value) {
            if (name.equalsIgnoreCase("Content-Type")) {
                contentType = value;
            } else if (name.equalsIgnoreCase("Content-Encoding")) {
                contentEncoding = value;
            }
        }

        /**
         * Takes the status; the body goes into the buffer, whatever length the caller gives: the
         * server writes the length it has, and none for a HEAD request.
         */
        @Override
        public OutputStream sendHeadersAndGetBody(final int code, final int contentLength) {
            if (status != 0) {
                throw new IllegalStateException("the response of this scrape was begun already");
            }
            status = code;
            return body;
        }
    }
}
