package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * mech writes only files of its own: a symbolic link at the log or report path is refused and
 * what it points at left alone; two JVMs given one log each write a whole log of their own.
 */
@QuietHosts
class LogAndReportFilesTest {

    private static final String OPTIONS = "prometheus=off,probes.locks=off,hiccup.interval=200ms";

    @TempDir
    Path dir;

    private Forked host(final Path jdk, final String options, final long millis) throws Exception {
        return Forked.start(dir, Forked.javaWithMech(jdk, OPTIONS + "," + options,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), Long.toString(millis)));
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void twoJvmsGivenOneLogEachWriteAWholeLogOfTheirOwn(final Path jdk) throws Exception {
        final Path log = dir.resolve("shared.hlog");
        final Forked first = host(jdk, "hiccup.log=" + log, 3000);
        HdrTools.awaitFirstInterval(log);
        final Forked second = host(jdk, "hiccup.log=" + log, 1500);
        final Forked.Result late = second.await(30);
        final Forked.Result early = first.await(30);
        assertEquals(0, early.exit(), early.err());
        assertEquals(0, late.exit(), late.err());

        final Path own = Path.of(log + "." + second.pid());
        assertTrue(late.mechLines().contains("mech: hiccup log " + log + " is being written by another process; this one logs to " + own),
            late.err());
        assertTrue(late.err().contains("  host log: " + own + System.lineSeparator()), late.err());
        assertTrue(early.err().contains("  host log: " + log + System.lineSeparator()), early.err());
        assertEquals(List.of(), early.mechLines().stream().filter(line -> !line.startsWith("mech report")).toList(), early.err());
        for (final Path each : List.of(log, own)) {
            final int lines = HdrTools.allIntervalLines(each).size();
            assertTrue(lines >= 5, each + " holds the intervals of a 1.5 s run at least: " + lines);
            assertEquals(lines, HdrTools.readIntervals(each).size(), "HistogramLogReader reads " + each + " to its end");
            HdrTools.processLog(each);
        }
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void symbolicLinksAtTheLogAndReportPathsAreRefusedAndTheirTargetsLeftAlone(final Path jdk) throws Exception {
        final Path precious = Files.writeString(dir.resolve("precious.txt"), "keep me");
        final Path log = Files.createSymbolicLink(dir.resolve("h.hlog"), precious);
        final Path report = Files.createSymbolicLink(dir.resolve("report.txt"), precious);
        final Path json = Files.createSymbolicLink(dir.resolve("report.json"), dir.resolve("made-through-a-link.json"));
        final Forked host = host(jdk, "hiccup.log=" + log + ",report=" + report + ",report.json=" + json, 500);
        final Forked.Result result = host.await(30);
        assertEquals(0, result.exit(), result.err());

        assertEquals("keep me", Files.readString(precious));
        assertTrue(Files.notExists(dir.resolve("made-through-a-link.json")), "a dangling link is not followed either");
        final List<String> lines = result.mechLines();
        assertEquals(4, lines.size(), result.err());
        assertEquals("mech: cannot write hiccup log " + log + " (a symbolic link, not followed); recording in memory only", lines.get(0));
        assertEquals("mech: cannot write report " + report + " (a symbolic link, not followed); it follows on stderr", lines.get(1));
        assertTrue(lines.get(2).startsWith("mech report: pid " + host.pid() + ", "), "the report comes on stderr: " + result.err());
        assertEquals("mech: cannot write JSON report " + json + " (a symbolic link, not followed); the report is on stderr", lines.get(3));
        assertTrue(result.err().contains("  host log not written (a symbolic link, not followed)"), result.err());
    }
}
