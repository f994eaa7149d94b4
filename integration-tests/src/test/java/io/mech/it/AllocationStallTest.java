package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.AllocationStallHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A ZGC host whose threads really wait for memory: its allocation stalls are in the report's
 * notes, in the log's {@code allocation-stall} lines, and in what replay makes of that log, with
 * the same count.
 */
class AllocationStallTest {

    private static final Pattern NOTE = Pattern.compile(
        "threads waited for memory \\(allocation stalls\\): (\\d+) stalls?, ([0-9.]+) ms in all, longest ([0-9.]+) ms");
    private static final Pattern REPLAY = Pattern.compile(
        "#\\[Allocation stalls \\(ZGC\\), from the logs' allocation-stall lines: (\\d+) stalls? in (\\d+) of (\\d+) intervals, "
            + "total ([0-9.]+) ms, longest ([0-9.]+) ms; threads' waits for memory");
    private static final String TAG = "allocation-stall";

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void theReportTheLogAndReplayCountTheSameStalls(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final Path log = dir.resolve("hiccup.hlog");
        final Path gcLog = dir.resolve("gc.log");
        final Path go = dir.resolve("go");
        // 500 MB live in a 700 MB heap, three threads churning for 4 s: hundreds of stalls on 17 and 25.
        final Forked forked = Forked.start(dir, Forked.javaWithMech(jdk, "hiccup.causes.jfr=on,prometheus=off,report=off,"
            + "report.json=" + json + ",hiccup.log=" + log + ",hiccup.interval=1s", "-XX:+UseZGC", "-Xmx700m",
            "-Xlog:gc:file=" + gcLog, "-cp", Paths.testClasses(), AllocationStallHost.class.getName(), "500", "4000", "3", go.toString()));
        // JFR hears of no stall before it records; started under this load, it took seconds on JDK 17.
        forked.awaitJfrRecording(jdk);
        Files.createFile(go);
        final Forked.Result host = forked.await(120);
        assertEquals(0, host.exit(), host.err());
        final long inGcLog = Files.readAllLines(gcLog).stream().filter(l -> l.contains("Allocation Stall (")).count();

        final String report = Files.readString(json);
        final Matcher note = NOTE.matcher(String.join("\n", ReportRows.notes(report)));
        assertTrue(note.find(), "no allocation-stall note in the report (-Xlog:gc saw " + inGcLog + " stalls): " + report);
        final long reported = Long.parseLong(note.group(1));
        final double reportedMillis = Double.parseDouble(note.group(2));
        assertTrue(reported > 0, note.group());

        long logged = 0;
        long lines = 0;
        double loggedMillis = 0;
        for (final EncodableHistogram interval : HdrTools.readIntervals(log)) {
            if (TAG.equals(interval.getTag())) {
                final Histogram h = (Histogram) interval;
                lines++;
                logged += h.getTotalCount();
                loggedMillis += h.getMean() * h.getTotalCount() / 1e6;
            }
        }
        final String seen = "report: " + note.group() + "; log: " + logged + " stalls, " + loggedMillis + " ms in " + lines
            + " allocation-stall lines; -Xlog:gc: " + inGcLog + " stalls (any length)";
        assertTrue(lines > 0, seen);
        // Both count what JFR delivered by their moment: the log's last interval is written as
        // mech stops, the report just after, so the report may hold a few more, delivered in
        // between; the host stops churning before it exits, so few or none are in flight.
        assertTrue(logged <= reported && logged >= reported * 0.95, seen);
        assertTrue(loggedMillis <= reportedMillis * 1.001 && loggedMillis >= reportedMillis * 0.95 - 1, seen);

        final Forked.Result replay = Forked.run(dir, List.of(Jdks.java(jdk), "-jar", Paths.mechJar().toString(), "replay",
            log.toString()), 60);
        assertEquals(0, replay.exit(), replay.err());
        final Matcher said = REPLAY.matcher(replay.out());
        assertTrue(said.find(), "replay says nothing of the allocation stalls (" + seen + "):\n" + replay.out());
        assertEquals(logged, Long.parseLong(said.group(1)), said.group() + "\n" + seen);
        assertEquals(lines, Long.parseLong(said.group(3)), said.group() + "\n" + seen);
        final double replayedMillis = Double.parseDouble(said.group(4));
        assertTrue(replayedMillis > 0 && Math.abs(replayedMillis - loggedMillis) <= 0.001 + loggedMillis * 1e-6,
            said.group() + "\n" + seen);
    }
}
