package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.FullHeapHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * mech under a host at its heap limit (64 MiB, while the host catches every
 * {@code OutOfMemoryError}), on every JDK, filled either once mech has started (held full for
 * 3 s) or from main's first line (8 s of bursts, while mech still starts): the host's stderr
 * holds nothing at all, the recorder records, the host's own file, time-zone and formatting
 * classes work after, /metrics answers once the pressure ends, and the report names what the
 * full heap cut short. Once mech runs, the collector's pauses are put down to gc; from the first
 * line, mech's start mostly waits the pressure out, and the recorder with it. Before, mech lost its
 * threads one by one with stack traces on stderr, kept /metrics dead, or crashed the JVM; and a
 * heap full from the start broke, in 2 runs of 11 on JDK 17, a JDK class mech's start was the
 * first to initialise ({@code FileChannelImpl}, {@code IOUtil}, {@code ZoneInfoFile}), for mech
 * (no recorder, no report) and the host alike.
 */
class FullHeapTest {


    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aHeapFullOnceMechRunsTakesNothingApart(final Path jdk) throws Exception {
        final String report = run(jdk, FullHeapHost.ONCE_STARTED, "3000");
        assertGcOutweighsTheOs(report);
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aHeapFullFromMainsFirstLineTakesNothingApart(final Path jdk) throws Exception {
        final Forked.Result host = runHost(jdk, FullHeapHost.FROM_START, "8000");
        final String report = checked(host);
        // the meter started before main, on memory it took there: it measured the collections from the host's first
        // line, and the causes, started once the heap had room, attributed them from the stalls it kept
        final long gcDuring = Long.parseLong(host.out().lines().filter(l -> l.startsWith(FullHeapHost.GC_DURING))
            .findFirst().orElseThrow().substring(FullHeapHost.GC_DURING.length()).trim());
        assertTrue(gcDuring >= 1_000, "the host's collectors worked through the pressure: " + gcDuring + " ms; " + host.out());
        final double stallMillis = ReportRows.array(report, "hiccups").stream().filter(row -> row.get("jvm").equals("host"))
            .mapToDouble(row -> Double.parseDouble(row.get("stall_ms"))).sum();
        assertTrue(stallMillis >= 0.5 * gcDuring, "the meter stalled through the collections, " + stallMillis + " ms of "
            + gcDuring + " ms: " + report);
        final List<String> notes = ReportRows.notes(report);
        // The causes start once the heap has room and attribute what the meter queued meanwhile (2 s of stalls, the
        // rest unknown): a run whose causes' start the full heap cut short once ran a second attributing thread beside
        // the first, and reported the second's 34% of the collections (JDK 25, 2 runs of 19)
        assertTrue(causeMillis(report, "gc") >= 0.5 * gcDuring, "the collections are gc, " + causeMillis(report, "gc") + " ms of "
            + gcDuring + " ms: " + report);
        // the start's wait for room, the log lines lost, the out-of-memory errors met: whichever the run met
        assertTrue(notes.stream().anyMatch(n -> n.contains("the host's full heap") || n.contains("the host's heap was full")),
            "the report names what the full heap cut short: " + notes);
    }

    private static void assertGcOutweighsTheOs(final String report) {
        final double gc = causeMillis(report, "gc");
        double outside = 0;
        for (final String cause : List.of("throttled", "runqueue", "steal", "paging", "frozen", "os")) {
            outside += causeMillis(report, cause);
        }
        assertTrue(gc > 0 && gc > outside, "the collections under pressure are gc, more than every cause outside the JVM: " + report);
    }

    /** Runs the host, checks what every run must show, and returns its JSON report. */
    private String run(final Path jdk, final String when, final String pressureMillis) throws Exception {
        return checked(runHost(jdk, when, pressureMillis));
    }

    private Forked.Result runHost(final Path jdk, final String when, final String pressureMillis) throws Exception {
        return Forked.run(dir, Forked.javaWithMech(jdk,
            "prometheus.port=0,report=off,report.json=" + dir.resolve("report.json") + ",hiccup.log=" + dir.resolve("host.hlog"),
            "-Xmx64m", "-cp", Paths.testClasses(), FullHeapHost.class.getName(), when, pressureMillis, "500"), 120);
    }

    /** Checks what every run must show, and returns its JSON report. */
    private String checked(final Forked.Result result) throws Exception {
        final Path json = dir.resolve("report.json");
        assertEquals(0, result.exit(), result.err());
        assertEquals("", result.err(), "nothing on the host's stderr");
        assertTrue(result.out().contains(FullHeapHost.METRICS_AFTER + "200"), "/metrics answers once the pressure ends: " + result.out());
        assertTrue(result.out().contains(FullHeapHost.JDK_CLASSES_AFTER + "ok"), "the host's own JDK classes work: " + result.out());
        assertTrue(result.out().contains("host done"), result.out());
        final String report = Files.readString(json);
        final Map<String, String> host = ReportRows.array(report, "hiccups").stream().filter(row -> row.get("jvm").equals("host"))
            .findFirst().orElseThrow();
        assertTrue(Long.parseLong(host.get("intervals")) >= 1, "the recorder recorded: " + report);
        // every stall the meter saw is in one cause's row, unknown for those the attribution never had
        final double attributed = ReportRows.byCause(report, "stalls").values().stream().mapToDouble(Double::doubleValue).sum();
        assertEquals(Long.parseLong(host.get("stalls")), (long) attributed, "the causes' stalls are the meter's: " + report);
        return report;
    }

    private static double causeMillis(final String report, final String cause) {
        return ReportRows.byCause(report, "stall_ms").getOrDefault(cause, 0.0);
    }
}
