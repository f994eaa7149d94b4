package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import app.DeadlockHost;
import io.mech.testing.Await;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The deadlock probe on a host with two pairs of threads, on monitors and on ReentrantLocks:
 * taking each pair's locks in opposite orders, both pairs deadlock, and /metrics, the report and
 * its JSON name the four threads, their locks and where they wait; taking them in one order, the
 * probe checks and stays silent. JDK 17 and 25.
 */
class DeadlockProbeTest {

    private static final String OPTIONS = "probes.deadlocks=on,probes.deadlocks.every=1s,prometheus.port=0,hiccup.log=,"
        + "probes.locks=off,hiccup.causes=off";
    private static final Pattern DEADLOCKED = Pattern.compile("(?m)^mech_deadlocked_threads (\\S+)$");
    private static final Pattern CHECKS = Pattern.compile("(?m)^mech_deadlock_checks_total (\\S+)$");

    @TempDir
    Path dir;

    static Stream<Arguments> runs() {
        return Jdks.all().flatMap(jdk -> Stream.of(Arguments.of(jdk, "inverted"), Arguments.of(jdk, "ordered")));
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("runs")
    void lockOrderInversionIsNamedAndOneOrderIsSilent(final Path jdk, final String order) throws Exception {
        final Path json = dir.resolve("report.json");
        final Path address = dir.resolve("metrics.address");
        final Path stop = dir.resolve("stop");
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk, OPTIONS + ",report.json=" + json,
            "-cp", Paths.testClasses(), DeadlockHost.class.getName(), order, address.toString(), stop.toString()));
        final boolean inverted = order.equals("inverted");
        final String metrics;
        try {
            // two checks after the ordered threads have long ended, or the inverted ones found
            metrics = scrapeUntil(host.awaitMetricsAddress(address), body -> value(CHECKS, body) >= 3
                && (!inverted || value(DEADLOCKED, body) == 4));
        } finally {
            Files.writeString(stop, "");
        }
        final Forked.Result result = host.await(60);
        assertEquals(0, result.exit(), result.err());
        final List<Map<String, String>> rows = ReportRows.of(Files.readString(json), "deadlocks");
        if (!inverted) {
            assertEquals(0.0, value(DEADLOCKED, metrics), metrics);
            assertEquals(List.of(), rows, "one order everywhere: no deadlock");
            return;
        }
        assertEquals(List.of("lock-first", "lock-second", "monitor-first", "monitor-second"),
            rows.stream().map(row -> row.get("thread")).sorted().toList(), rows.toString());
        for (final Map<String, String> row : rows) {
            final boolean monitor = row.get("thread").startsWith("monitor-");
            assertTrue(row.get("lock").startsWith(monitor ? "java.lang.Object@" : "java.util.concurrent.locks.ReentrantLock$NonfairSync@"),
                row.toString());
            assertTrue(row.get("owner").startsWith(monitor ? "monitor-" : "lock-") && !row.get("owner").equals(row.get("thread")),
                row.toString());
            assertTrue(row.get("at").startsWith(DeadlockHost.class.getName() + (monitor ? ".monitors:" : ".locks:")), row.toString());
        }
        final List<String> lines = result.err().lines().filter(line -> line.contains("deadlock of 2 threads")).toList();
        assertEquals(2, lines.size(), "each cycle once in the text report: " + result.err());
    }

    private static double value(final Pattern family, final String body) {
        final Matcher m = family.matcher(body);
        return m.find() ? Double.parseDouble(m.group(1)) : -1;
    }

    /** Scrapes, in text, until the body passes the check, for at most a minute; returns that body. */
    private static String scrapeUntil(final URI uri, final Predicate<String> done) throws Exception {
        final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        final HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build();
        final AtomicReference<String> last = new AtomicReference<>("");
        try {
            return Await.value("a scrape that passes the check", Duration.ofMinutes(1), Duration.ofMillis(100), () -> {
                final HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, response.statusCode(), response.body());
                last.set(response.body());
                return done.test(last.get()) ? last.get() : null;
            });
        } catch (final AssertionError none) {
            throw new AssertionError(none.getMessage() + "; the last body: " + last.get(), none);
        }
    }
}
