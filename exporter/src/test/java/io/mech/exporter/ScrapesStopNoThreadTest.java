package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scrape with client_java's JVM metrics on runs no VM operation that stops the host's threads
 * for deadlock detection: JFR's {@code jdk.ExecuteVMOperation} events, recorded while the endpoint
 * is scraped, hold one {@code FindDeadlocks}, the test's own, which proves they would show a
 * scrape's.
 */
class ScrapesStopNoThreadTest {

    private static final int SCRAPES = 20;

    @TempDir
    Path dir;

    @Test
    void jvmMetricsAreServedWithoutTheDeadlockGaugesAndTheirSafepoints() throws Exception {
        final List<String> warnings = new ArrayList<>();
        final PrometheusEndpoint endpoint = PrometheusEndpoint.start(
            new ExporterSettings("127.0.0.1", 0, "", null, null, null, true, false), List.of(), warnings::add, () -> true);
        assertNotNull(endpoint, warnings.toString());
        final Path jfr = dir.resolve("scrapes.jfr");
        final List<String> bodies = new ArrayList<>();
        try (Recording recording = new Recording()) {
            recording.enable("jdk.ExecuteVMOperation").withThreshold(java.time.Duration.ZERO);
            recording.start();
            final HttpClient http = HttpClient.newHttpClient();
            final HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + endpoint.port() + "/metrics")).build();
            for (int i = 0; i < SCRAPES; i++) {
                final HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode());
                bodies.add(response.body());
            }
            ManagementFactory.getThreadMXBean().findDeadlockedThreads();
            recording.stop();
            recording.dump(jfr);
        } finally {
            endpoint.close();
        }
        final String last = bodies.get(SCRAPES - 1);
        assertTrue(last.contains("jvm_threads_current "), "client_java's JVM metrics are served");
        assertTrue(last.contains("jvm_threads_state{"), "thread states are served");
        assertEquals(1, last.split("\n# TYPE process_resident_memory_bytes gauge\n", -1).length - 1, "process families, once");
        assertTrue(last.contains("\nprocess_cpu_seconds_total "), "process CPU time");
        for (final String excluded : List.of("jvm_threads_deadlocked", "jvm_threads_deadlocked_monitor")) {
            assertFalse(last.contains(excluded), excluded + " is not served");
        }
        int deadlockSearches = 0;
        for (final RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
            if ("FindDeadlocks".equals(event.getString("operation"))) {
                deadlockSearches++;
            }
        }
        assertEquals(1, deadlockSearches, "FindDeadlocks operations: the test's own, none of " + SCRAPES + " scrapes'");
    }
}
