package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import app.QuietHost;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * mech is never its own finding (issue 21, finding 6). A host with no lock of its own runs under
 * mech's defaults (the hiccup recorder, the lock probe, /metrics on a free port) while the test
 * scrapes /metrics {@value #SCRAPES} times on 127.0.0.1, then ends: neither the report's locks
 * section nor /metrics' lock families hold any lock, on JDK 17 and 25, though mech's HTTP threads
 * and its JFR stream took theirs throughout. With the queue probe and the profiler on too (lock
 * trigger at 1 ms), the only queue reported is the host's own, none of mech's is counted among
 * the JDK's own, and no capture is taken. mech prints nothing but its report.
 *
 * <p>JFR hands events over up to a second late and the report does not wait for them, so blocks
 * of the last second may go unheard: that can hide a row, never add one.
 */
class MechIsNeverItsOwnFindingTest {

    private static final int SCRAPES = 100;
    private static final int SCRAPERS = 2;
    private static final long START_NANOS = Duration.ofSeconds(60).toNanos();
    private static final String QUEUES_AND_PROFILER =
        "probes.queues=on,profiler=on,probes.locks.profiler-threshold=1ms,hiccup.profiler-threshold=10m,profiler.dir=captures";
    /** Lock families that name a lock: all but mech_lock_monitors_in_use, a count of the JVM's monitors. */
    private static final List<String> LOCK_SAMPLES = List.of("mech_lock_blocked_seconds", "mech_lock_blocked_max_seconds",
        "mech_lock_contended_acquisition_seconds", "mech_lock_monitor_inflations");

    @TempDir
    Path dir;

    static Stream<Arguments> runs() {
        return Jdks.all().flatMap(jdk -> Stream.of(Arguments.of(jdk, ""), Arguments.of(jdk, QUEUES_AND_PROFILER)));
    }

    @ParameterizedTest(name = "[{1}] on {0}")
    @MethodSource("runs")
    void aScrapedHostWithoutLocksReportsNoneOfMechs(final Path jdk, final String options) throws Exception {
        final Path json = dir.resolve("report.json");
        final Path address = dir.resolve("metrics.address");
        final Path stop = dir.resolve("stop");
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk,
            "prometheus.port=0,report.json=" + json + (options.isEmpty() ? "" : "," + options),
            "-cp", Paths.testClasses(), QuietHost.class.getName(), address.toString(), stop.toString()));
        final String metrics;
        try {
            final URI uri = host.awaitMetricsAddress(address);
            assertEquals("127.0.0.1", uri.getHost(), uri.toString());
            metrics = scrape(uri, options.isEmpty() ? body -> true
                : body -> body.contains("site=\"" + QuietHost.class.getName() + ".main:"));
        } finally {
            Files.writeString(stop, "");
        }
        final Forked.Result result = host.await(60);
        assertEquals(0, result.exit(), result.err());
        final List<String> said = result.mechLines();
        assertTrue(said.size() == 1 && said.get(0).startsWith("mech report:"), "mech says nothing but its report: " + result.err());

        final String report = Files.readString(json);
        assertEquals(List.of(), ReportRows.of(report, "locks"), report);
        assertEquals(List.of(), section(result.err(), "locks").stream().filter(line -> !line.startsWith("monitors: ")).toList(),
            result.err());
        assertEquals(List.of(), samples(metrics, LOCK_SAMPLES), metrics);

        if (options.equals(QUEUES_AND_PROFILER)) {
            final List<Map<String, String>> queues = ReportRows.of(report, "queues");
            assertTrue(queues.size() == 1 && queues.get(0).get("site").startsWith(QuietHost.class.getName() + ".main:"),
                "the host's queue, and no other: " + report);
            assertTrue(section(result.err(), "queues").stream().anyMatch(line -> line.contains("left out: 0 of the JDK's or a library's own")),
                result.err());
            // every series of a queue has its site; the probe's own count of depth corrections has none, and is 0
            final List<String> queueSamples = samples(metrics, List.of("mech_queue_", "mech_executor_")).stream()
                .filter(line -> !line.equals("mech_queue_depth_corrections_total 0.0")).toList();
            assertTrue(!queueSamples.isEmpty() && queueSamples.stream().allMatch(line -> line.contains(
                "site=\"" + QuietHost.class.getName() + ".main:")), "/metrics has the host's queue alone: " + queueSamples);
            assertEquals(List.of("no capture: no trigger reached its threshold"), section(result.err(), "profiler"), result.err());
        }
    }

    /**
     * Scrapes {@value #SCRAPES} times, {@value #SCRAPERS} at once as a pair of Prometheus servers
     * would, and on until the body passes the check (the queue probe samples once a second), for
     * at most a minute.
     *
     * @return the last body
     */
    private static String scrape(final URI uri, final Predicate<String> done) throws Exception {
        final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        final HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build();
        final long end = System.nanoTime() + START_NANOS;
        String body = "";
        for (int scraped = 0; scraped < SCRAPES || !done.test(body); scraped += SCRAPERS) {
            if (System.nanoTime() > end) {
                throw new AssertionError("after a minute of scrapes, the last body: " + body);
            }
            final List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
            for (int i = 0; i < SCRAPERS; i++) {
                pending.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
            }
            for (final CompletableFuture<HttpResponse<String>> scrape : pending) {
                final HttpResponse<String> response = scrape.get();
                assertEquals(200, response.statusCode(), response.body());
                body = response.body();
            }
        }
        return body;
    }

    /** The lines of one section of the text report, without their indent. */
    private static List<String> section(final String err, final String name) {
        final List<String> lines = new ArrayList<>();
        boolean in = false;
        for (final String line : err.split("\n")) {
            if (line.equals("  " + name + ":")) {
                in = true;
            } else if (in && line.startsWith("    ")) {
                lines.add(line.substring(4));
            } else {
                in = false;
            }
        }
        return lines;
    }

    /** The sample lines (not comments) of the families whose names begin with one of the prefixes. */
    private static List<String> samples(final String metrics, final List<String> prefixes) {
        return metrics.lines().filter(line -> prefixes.stream().anyMatch(line::startsWith)).toList();
    }
}
