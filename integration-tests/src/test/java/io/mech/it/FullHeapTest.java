package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.FullHeapHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * mech under a host at its heap limit (64 MiB, filled and held full for 3 s once mech has started,
 * while the host catches every {@code OutOfMemoryError}), on every JDK: the host's stderr holds
 * nothing at all, the recorder records, the collector's pauses are put down to gc, and /metrics
 * answers once the pressure ends. Before, mech lost its threads one by one with stack traces on
 * stderr, kept /metrics dead, or crashed the JVM. A heap that fills while mech still starts is
 * not covered: a class mech initialises then can break for the JVM's life (docs/architecture.md,
 * "A full heap").
 */
class FullHeapTest {


    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aHeapFullOnceMechRunsTakesNothingApart(final Path jdk) throws Exception {
        final String report = run(jdk);
        final double gc = causeMillis(report, "gc");
        double outside = 0;
        for (final String cause : List.of("throttled", "runqueue", "steal", "paging", "frozen", "os")) {
            outside += causeMillis(report, cause);
        }
        assertTrue(gc > 0 && gc > outside, "the collections under pressure are gc, more than every cause outside the JVM: " + report);
    }

    /** Runs the host, checks what every run must show, and returns its JSON report. */
    private String run(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk,
            "prometheus.port=0,report=off,report.json=" + json + ",hiccup.log=" + dir.resolve("host.hlog"),
            "-Xmx64m", "-cp", Paths.testClasses(), FullHeapHost.class.getName(), "3000", "500"), 120);
        assertEquals(0, result.exit(), result.err());
        assertEquals("", result.err(), "nothing on the host's stderr");
        assertTrue(result.out().contains(FullHeapHost.METRICS_AFTER + "200"), "/metrics answers once the pressure ends: " + result.out());
        assertTrue(result.out().contains("host done"), result.out());
        final String report = Files.readString(json);
        assertTrue(ReportRows.array(report, "hiccups").stream()
            .anyMatch(row -> row.get("jvm").equals("host") && Long.parseLong(row.get("intervals")) >= 1), "the recorder recorded: " + report);
        return report;
    }

    private static double causeMillis(final String report, final String cause) {
        return ReportRows.byCause(report, "stall_ms").getOrDefault(cause, 0.0);
    }
}
