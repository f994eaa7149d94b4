package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.exporter.http.HttpServer;
import io.mech.testing.Await;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 21, finding 1: clients that trickle their request a byte at a time must not starve
 * /metrics. Before, two of them held both scrape threads for good and every scrape timed out.
 */
class SlowClientsTest {

    private static final long SECOND = 1_000_000_000L;
    /** Slack for a loaded two-core machine, on top of the deadlines under test. */
    private static final long SLACK_NANOS = 2 * SECOND;
    private static final byte[] TRICKLE = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII);

    private final List<String> warnings = new ArrayList<>();
    /** Sent one more byte every 200 ms by the trickling thread. */
    private final List<Socket> tricklers = new CopyOnWriteArrayList<>();
    private final List<Socket> others = new ArrayList<>();
    private PrometheusEndpoint endpoint;
    private Thread trickling;

    @AfterEach
    void close() throws Exception {
        if (trickling != null) {
            trickling.interrupt();
            trickling.join(5_000);
        }
        for (final Socket socket : tricklers) {
            socket.close();
        }
        for (final Socket socket : others) {
            socket.close();
        }
        if (endpoint != null) {
            endpoint.close();
        }
    }

    /** Starts the endpoint and a thread that sends each trickler one more byte of a header that never ends every 200 ms. */
    private void startEndpoint() {
        endpoint = PrometheusEndpoint.start(new ExporterSettings("127.0.0.1", 0, "", null, null, null, false, false),
            List.of(), warnings::add, () -> true);
        trickling = new Thread(() -> {
            try {
                for (int sent = 1; !Thread.currentThread().isInterrupted(); sent++) {
                    Thread.sleep(200);
                    for (final Socket socket : tricklers) {
                        try {
                            socket.getOutputStream().write(sent < TRICKLE.length ? TRICKLE[sent] : 'a');
                        } catch (final IOException closedByTheServer) {
                            // expected once the endpoint gives up on this client
                        }
                    }
                }
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "test-trickler");
        trickling.setDaemon(true);
        trickling.start();
    }

    /** Opens a client that sends the first byte of a request. */
    private Socket connect() throws IOException {
        final Socket socket = new Socket(InetAddress.getLoopbackAddress(), endpoint.port());
        socket.getOutputStream().write(TRICKLE[0]);
        return socket;
    }

    private void trickle(final int clients) throws IOException {
        for (int i = 0; i < clients; i++) {
            tricklers.add(connect());
        }
    }

    private void awaitBusy(final int exchanges) throws InterruptedException {
        Await.until(exchanges + " exchanges busy", Duration.ofSeconds(5), () -> endpoint.busyExchanges() == exchanges);
    }

    private HttpResponse<String> scrape(final long timeoutNanos) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics"))
            .timeout(Duration.ofNanos(timeoutNanos)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long counted(final String body, final String reason) {
        final Matcher m = Pattern.compile("^mech_exporter_client_errors_total\\{reason=\"" + reason + "\"} (\\S+)$", Pattern.MULTILINE)
            .matcher(body);
        assertTrue(m.find(), reason + " in\n" + body);
        return (long) Double.parseDouble(m.group(1));
    }

    /** Reads until the server closes the connection; fails when it stays open past the deadline. */
    private static void assertClosedBy(final Socket socket, final long deadline) throws IOException {
        final InputStream in = socket.getInputStream();
        while (true) {
            final long left = deadline - System.nanoTime();
            assertTrue(left > 0, "a trickling client still connected");
            socket.setSoTimeout((int) Math.max(1, left / 1_000_000));
            try {
                if (in.read() < 0) {
                    return;
                }
            } catch (final SocketTimeoutException e) {
                throw new AssertionError("a trickling client still connected", e);
            } catch (final IOException reset) {
                return;
            }
        }
    }

    /**
     * Every scrape thread taken and every place but one in line taken by clients that trickle: the
     * real scrape, last in line, still answers within one read timeout, and each trickler is cut
     * off and counted as a timeout.
     */
    @Test
    void aScrapeBehindTricklingClientsAnswersWithinTheReadTimeout() throws Exception {
        startEndpoint();
        final int slow = HttpServer.MAX_THREADS + HttpServer.MAX_WAITING - 1;
        trickle(slow);
        awaitBusy(slow);
        final long readTimeout = HttpServer.READ_TIMEOUT_SECONDS * SECOND;
        final long start = System.nanoTime();
        final HttpResponse<String> response = scrape(readTimeout + SLACK_NANOS);
        final long took = System.nanoTime() - start;
        assertEquals(200, response.statusCode());
        assertTrue(took < readTimeout + SLACK_NANOS, "took " + took / 1_000_000 + " ms");
        // The tricklers in line started their read deadline when the first ones gave up: two timeouts at most.
        final long cutOff = start + 2 * readTimeout + SLACK_NANOS;
        for (final Socket socket : tricklers) {
            assertClosedBy(socket, cutOff);
        }
        final String body = scrape(SLACK_NANOS).body();
        assertEquals(slow, counted(body, "timeout"), body);
        assertEquals(0, counted(body, "rejected"), body);
        assertEquals(0, counted(body, "disconnect"), body);
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    /** More trickling clients than threads and places in line: the rest are refused at once, and the threads stay capped. */
    @Test
    void clientsBeyondTheThreadsAndTheLineAreRefusedAtOnce() throws Exception {
        startEndpoint();
        final int capacity = HttpServer.MAX_THREADS + HttpServer.MAX_WAITING;
        final int refused = 2;
        trickle(capacity);
        awaitBusy(capacity);
        for (int i = 0; i < refused; i++) {
            final Socket late = connect();
            others.add(late);
            // Refused long before any read deadline could have closed it.
            assertClosedBy(late, System.nanoTime() + HttpServer.READ_TIMEOUT_SECONDS * SECOND / 2);
        }
        assertEquals(HttpServer.MAX_THREADS, endpoint.scrapeThreads(), "threads serving exchanges");
        for (final Socket socket : tricklers) {
            assertClosedBy(socket, System.nanoTime() + 2 * HttpServer.READ_TIMEOUT_SECONDS * SECOND + SLACK_NANOS);
        }
        final String body = scrape(SLACK_NANOS).body();
        assertEquals(refused, counted(body, "rejected"), body);
        assertEquals(capacity, counted(body, "timeout"), body);
    }
}
