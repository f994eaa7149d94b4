package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lock probe's pinned virtual threads ({@code jdk.VirtualThreadPinned}), on JDK 21 and later
 * (skipped on older JDKs): the {@code carrier-wait} kernel's {@code pinned-init} variant, whose
 * virtual threads sleep inside a class initializer, shows as a {@code pinned} row at that
 * initializer, in the report and on /metrics ({@code mech_lock_blocked_seconds{kind="pinned"}});
 * the twin, which sleeps after the initializer returns, has none there. Both load a class each
 * round from the examples' jar on virtual threads, and a load that blocks for a moment inside the
 * JVM's native frames is a real pin of its own (seen once in three runs: one pin of 2.1 ms at
 * {@code FreshClassLoader.loadClass}, reason "Freeze or preempt failed"), so the twin is held to
 * no pin at the initializer and a pinned total under a tenth of the defect's. Pins are JFR's alone
 * to see and no contention, so the probe reads JFR from the first second ({@code probes.locks.jfr=on}).
 */
class VirtualThreadPinnedTest {

    private static final String SITE = "io.mech.examples.virtual.CarrierWaitKernel$SleepingInit.<clinit>:";
    private static final Pattern PINNED_SERIES =
        Pattern.compile("mech_lock_blocked_seconds_count\\{[^}]*kind=\"pinned\"[^}]*site=\"([^\"]+)\"[^}]*} ([0-9]+)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aVirtualThreadBlockedInAnInitializerIsAPinnedRowAtItAndTheTwinHasNone(final Path jdk) throws Exception {
        Assumptions.assumeTrue(Jdks.feature(jdk) >= 21, "virtual threads need JDK 21, " + jdk + " is " + Jdks.feature(jdk));
        final Run pinned = run(jdk, "pinned-init");
        final Run twin = run(jdk, "unpinned-sleep");

        final List<Map<String, String>> rows = pinned.rows("pinned");
        assertFalse(rows.isEmpty(), "a pinned row: " + pinned.report);
        assertTrue(rows.get(0).get("site").startsWith(SITE), "the heaviest pinned row is at the initializer: " + rows);
        assertTrue(Long.parseLong(rows.get(0).get("count")) >= 10, "pins counted: " + rows);
        final Matcher series = PINNED_SERIES.matcher(pinned.metrics);
        assertTrue(series.find(), "a pinned series on /metrics: " + pinned.metrics);
        assertTrue(series.group(1).startsWith(SITE) && Long.parseLong(series.group(2)) > 0, series.group());

        final List<Map<String, String>> twinRows = twin.rows("pinned");
        assertTrue(twinRows.stream().noneMatch(row -> row.get("site").startsWith(SITE)), "no pinned row at the initializer beside the twin: "
            + twinRows);
        assertTrue(totalMs(twinRows) * 10 < totalMs(rows), "pinned beside the twin " + twinRows + ", beside the defect " + rows);
        assertFalse(twin.metrics.contains("site=\"" + SITE), "no pinned series at the initializer beside the twin");

    }

    private static double totalMs(final List<Map<String, String>> rows) {
        return rows.stream().mapToDouble(row -> Double.parseDouble(row.get("total_ms"))).sum();
    }

    private record Run(String report, String metrics) {
        List<Map<String, String>> rows(final String kind) {
            return ReportRows.of(report, "locks").stream().filter(row -> kind.equals(row.get("kind"))).toList();
        }
    }

    /** Runs one variant with the defaults and /metrics on a free port; its last scrape and its JSON report. */
    private Run run(final Path jdk, final String variant) throws Exception {
        final Path json = dir.resolve(variant + ".json");
        final int port = PrometheusServer.freePort();
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk,
            "report=off,probes.locks.jfr=on,hiccup.log=,report.json=" + json + ",prometheus.port=" + port,
            "-jar", Paths.examplesJar().toString(), "carrier-wait:" + variant, "--seconds", "6"));
        host.awaitMechStarted(jdk);
        final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        final HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
            .timeout(Duration.ofSeconds(2)).build();
        final AtomicReference<String> last = new AtomicReference<>("");
        // JFR delivers a second late: scrape until the pins show, or the kernel has ended (60 s: far past its 6 s)
        final String metrics = Await.value("the pins scraped, or the kernel ended", Duration.ofSeconds(60), Duration.ofMillis(200), () -> {
            try {
                last.set(client.send(scrape, HttpResponse.BodyHandlers.ofString()).body());
            } catch (final HttpTimeoutException slow) {
                // the first scrape builds /metrics: on a busy machine past the request's 2 s (ci37)
                return null;
            } catch (final IOException ended) {
                return last.get();
            }
            return PINNED_SERIES.matcher(last.get()).find() ? last.get() : null;
        });
        final Forked.Result result = host.await(60);
        assertEquals(0, result.exit(), result.err());
        assertTrue(metrics.contains("mech_hiccup_seconds"), "/metrics was scraped: " + metrics);
        return new Run(Files.readString(json), metrics);
    }
}
