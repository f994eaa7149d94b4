package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.Await;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 21, finding 2: clients that go away before reading their response cost a count in
 * {@code mech_exporter_client_errors_total}, never a line on the host's stderr. Before, each
 * wrote a SEVERE {@code Broken pipe} stack trace of about 30 lines through the host's
 * java.util.logging (1,500 lines for 50 such clients).
 */
@QuietHosts
class ExporterClientErrorsTest {

    private static final int CLIENTS = 1_000;
    private static final byte[] REQUEST = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final Pattern COUNTED = Pattern.compile("^mech_exporter_client_errors_total\\{reason=\"(\\w+)\"} (\\S+)$",
        Pattern.MULTILINE);

    @TempDir
    Path dir;

    /**
     * The connections the test's own scrapes opened: the endpoint may drop one (refused while
     * every thread was busy, or left idle after its response), and count it like any client's.
     */
    private int scrapeConnections;

    /**
     * One scrape on a connection of its own: a client reusing a kept-alive connection retries a
     * request the endpoint refused on it without telling, and the refusal, counted by mech, would
     * go unseen here.
     */
    private HttpResponse<String> scrape(final int port) throws Exception {
        final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            scrapeConnections++;
            return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString());
        } catch (final ConnectException refused) {
            // nothing accepted it, so the endpoint cannot count it; awaiting the endpoint makes many such
            scrapeConnections--;
            throw refused;
        }
    }

    /** Scrapes until the endpoint answers, for at most 30 s. */
    private HttpResponse<String> awaitEndpoint(final int port) throws Exception {
        return Await.value("mech serving /metrics on " + port, Duration.ofSeconds(30), Duration.ofMillis(100), () -> scrape(port));
    }

    private static long counted(final String body) {
        final Matcher m = COUNTED.matcher(body);
        long total = 0;
        int reasons = 0;
        while (m.find()) {
            total += (long) Double.parseDouble(m.group(2));
            reasons++;
        }
        assertEquals(3, reasons, body);
        return total;
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void clientsThatVanishBeforeTheirResponseAreCountedAndNeverLogged(final Path jdk) throws Exception {
        final int port = PrometheusServer.freePort();
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk, "report=off,hiccup.log=,prometheus.port=" + port,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "600000"));
        final long before;
        final HttpResponse<String> after;
        try {
            before = counted(awaitEndpoint(port).body());
            for (int i = 0; i < CLIENTS; i++) {
                try (Socket client = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    client.getOutputStream().write(REQUEST);
                    if (i % 2 == 1) {
                        // half the clients reset the connection; the others close it in order, unread
                        client.setSoLinger(true, 0);
                    }
                }
            }
            // Right after the burst, a scrape may find every thread busy and the line full, and be refused; and one
            // asked within 200 ms of another is answered what that one was, counted before the burst's last drops
            after = Await.value("the drops counted", Duration.ofSeconds(30), () -> {
                final HttpResponse<String> now = scrape(port);
                return counted(now.body()) > before ? now : null;
            });
        } finally {
            ProcessHandle.of(host.pid()).ifPresent(ProcessHandle::destroy);
        }
        final Forked.Result result = host.await(30);
        assertEquals(200, after.statusCode(), "the endpoint still serves");
        final long errors = counted(after.body()) - before;
        System.out.println(jdk.getFileName() + ": client errors counted " + errors + " of " + CLIENTS + " clients");
        // At most one error a connection: the clients' and the test's own scrapes'.
        assertTrue(errors > 0 && errors <= CLIENTS + scrapeConnections,
            "client errors counted: " + errors + ", of " + CLIENTS + " clients and " + scrapeConnections + " scrape connections of the test's");
        assertEquals("", result.err(), "the host's stderr");
    }
}
