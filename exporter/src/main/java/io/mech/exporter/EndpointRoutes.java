package io.mech.exporter;

import io.mech.exporter.http.Handler;
import io.mech.exporter.http.Request;
import io.mech.exporter.http.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * What mech's endpoint serves: {@code /metrics}, and {@code /-/healthy} (200 while the endpoint
 * serves, for probes that must not scrape), to GET and HEAD, behind basic auth when it is set.
 *
 * <p>Thread contract: called by the server's serving threads, several at once; it holds nothing
 * that changes.
 */
final class EndpointRoutes implements Handler {

    private static final String TEXT = "text/plain; charset=utf-8";
    private static final byte[] HEALTHY = "mech is serving\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NONE = new byte[0];

    private final MetricsScrapes metrics;
    /** {@code user:password} as a client sends it, or null when no one need authenticate. */
    private final byte[] credentials;

    /**
     * @param metrics  answers {@code /metrics}
     * @param user     the user a client must authenticate as, or null for none
     * @param password that user's password
     */
    EndpointRoutes(final MetricsScrapes metrics, final String user, final String password) {
        this.metrics = metrics;
        this.credentials = user == null ? null : (user + ":" + password).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void handle(final Request request, final Response response) throws IOException {
        if (!request.isRead()) {
            response.header("Allow", "GET, HEAD");
            response.send(405, TEXT, null, NONE, 0);
        } else if (credentials != null && !admits(request.header("Authorization"))) {
            response.header("WWW-Authenticate", "Basic realm=\"mech\"");
            response.send(401, TEXT, null, NONE, 0);
        } else if (request.pathIs("/metrics")) {
            metrics.answer(request, response);
        } else if (request.pathIs("/-/healthy")) {
            response.send(200, TEXT, null, HEALTHY, HEALTHY.length);
        } else {
            response.send(404, TEXT, null, NONE, 0);
        }
    }

    /** Whether basic auth names the user with the password; compared in constant time. */
    private boolean admits(final String authorization) {
        if (authorization == null || authorization.length() < 6 || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return false;
        }
        final byte[] given;
        try {
            given = Base64.getDecoder().decode(authorization.substring(6).trim());
        } catch (final IllegalArgumentException malformed) {
            return false;
        }
        return MessageDigest.isEqual(credentials, given);
    }
}
