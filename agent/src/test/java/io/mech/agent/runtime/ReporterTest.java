package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.Parts;
import io.mech.agent.hiccup.HiccupPart;
import io.mech.agent.options.Options;
import io.mech.exporter.InternalErrors;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.report.JsonReport;
import io.mech.report.Report;
import io.mech.report.TextReport;
import io.mech.testing.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report says what became of the hiccup log, and where the report itself went. */
class ReporterTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private final List<String> warnings = new CopyOnWriteArrayList<>();

    /** The report on a recorder that closed one interval and stopped. */
    private Report reportOn(final Path log) throws InterruptedException {
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 50 * MS, 0, 2 * MS, log), warnings::add);
        Await.until("an interval", Duration.ofSeconds(10), () -> hiccups.snapshot().intervals() > 0);
        hiccups.close();
        final Options options = Options.parse(Parts.options(), "report=stderr", new Properties(), Map.of(), warnings::add);
        return new Reporter(options, List.of(new HiccupPart(options, hiccups, null)), System.nanoTime(),
            new InternalErrors(warnings::add), "hiccup recorder off").gather();
    }

    /** What the final report put on stderr, with the given options. */
    private String finalReportOnStderr(final String options) throws Exception {
        final Options parsed = Options.parse(Parts.options(), options, new Properties(), Map.of(), warnings::add);
        assertEquals(List.of(), warnings, "options " + options);
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream original = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            new Reporter(parsed, List.of(), System.nanoTime(), new InternalErrors(warnings::add), "hiccup recorder off").finalReport();
        } finally {
            System.setErr(original);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void thePeriodicThreadEndsWithTheFinalReportAndNeverWritesAfterIt() throws Exception {
        final Path file = dir.resolve("report.txt");
        final Options options = Options.parse(Parts.options(), "report=" + file + ",report.interval=1h", new Properties(), Map.of(), warnings::add);
        final Reporter reporter = new Reporter(options, List.of(), System.nanoTime(), new InternalErrors(warnings::add), "hiccup recorder off");
        reporter.startPeriodic();
        final Thread periodic = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("mech-report"))
            .findFirst().orElseThrow();
        reporter.finalReport();
        periodic.join(5_000);
        assertFalse(periodic.isAlive(), "mech-report ended with the final report, not at its next wake");
        final String written = Files.readString(file);
        assertTrue(written.startsWith("mech report: pid "), written);
        assertEquals(List.of(), warnings);
    }

    @Test
    void aReportFileThatCannotBeWrittenGoesToStderrWithOneLineSayingWhy() throws Exception {
        final Path report = dir.resolve("no/such/dir/report.txt");
        final List<String> lines = finalReportOnStderr("report=" + report).lines().toList();
        assertEquals("mech: cannot write report " + report + " (no such directory); it follows on stderr", lines.get(0));
        assertTrue(lines.get(1).startsWith("mech report: pid " + ProcessHandle.current().pid()), lines.toString());
        assertTrue(lines.contains("  hiccup recorder off"), "the whole report: " + lines);
    }

    @Test
    void aJsonReportThatCannotBeWrittenGoesToStderrAsTextOnce() throws Exception {
        final Path json = dir.resolve("no/such/dir/report.json");
        final String alone = finalReportOnStderr("report=off,report.json=" + json);
        assertTrue(alone.startsWith("mech: cannot write JSON report " + json + " (no such directory); the report follows on stderr as text"
            + System.lineSeparator() + "mech report: pid "), alone);
        final String withText = finalReportOnStderr("report=stderr,report.json=" + json);
        assertEquals(1, withText.split("mech report: pid ", -1).length - 1, "the text report once: " + withText);
        assertTrue(withText.contains("mech: cannot write JSON report " + json + " (no such directory); the report is on stderr"), withText);
    }

    @Test
    void aReportFileIsWrittenAndNothingGoesToStderr() throws Exception {
        final Path report = dir.resolve("report.txt");
        final Path json = dir.resolve("report.json");
        assertEquals("", finalReportOnStderr("report=" + report + ",report.json=" + json));
        assertTrue(Files.readString(report).startsWith("mech report: pid "));
        assertTrue(Files.readString(json).startsWith("{\"pid\":"));
    }

    @Test
    void aSymbolicLinkAtAReportPathIsRefusedAndWhatItPointsAtIsLeftAlone() throws Exception {
        final Path precious = Files.writeString(dir.resolve("precious.txt"), "keep me");
        final Path report = Files.createSymbolicLink(dir.resolve("report.txt"), precious);
        final Path json = Files.createSymbolicLink(dir.resolve("report.json"), dir.resolve("created-through-a-link.json"));
        final List<String> lines = finalReportOnStderr("report=" + report + ",report.json=" + json).lines().toList();
        assertEquals("keep me", Files.readString(precious));
        assertTrue(Files.notExists(dir.resolve("created-through-a-link.json")), "a dangling link is not followed either");
        assertEquals("mech: cannot write report " + report + " (a symbolic link, not followed); it follows on stderr", lines.get(0));
        assertTrue(lines.contains("mech: cannot write JSON report " + json + " (a symbolic link, not followed); the report is on stderr"),
            lines.toString());
        assertTrue(lines.get(1).startsWith("mech report: pid "), lines.toString());
    }

    @Test
    void aSymbolicLinkAtTheLogPathIsRefusedAndWhatItPointsAtIsLeftAlone() throws Exception {
        final Path precious = Files.writeString(dir.resolve("precious.txt"), "keep me");
        final Path log = Files.createSymbolicLink(dir.resolve("h.hlog"), precious);
        final String text = TextReport.render(reportOn(log));
        assertEquals("keep me", Files.readString(precious));
        assertEquals(List.of("cannot write hiccup log " + log + " (a symbolic link, not followed); recording in memory only"), warnings);
        assertTrue(text.contains("  host log not written (a symbolic link, not followed)"), text);
    }

    @Test
    void aLogWrittenWholeIsNamed() throws Exception {
        final Path log = dir.resolve("h.hlog");
        final Report report = reportOn(log);
        assertTrue(TextReport.render(report).contains("  host log: " + log + System.lineSeparator()), TextReport.render(report));
        assertTrue(JsonReport.render(report).contains("\"log\":\"" + log + "\",\"log_problem\":\"\""), JsonReport.render(report));
    }

    @Test
    void aLogThatCouldNotBeOpenedIsReportedNotWrittenInsteadOfNamed() throws Exception {
        final Path log = dir.resolve("no/such/dir/h.hlog");
        final Report report = reportOn(log);
        final String text = TextReport.render(report);
        assertTrue(text.contains("  host log not written (no such directory: " + log.getParent() + ")"), text);
        assertFalse(text.contains("host log: "), "no path is given for a log that was not written: " + text);
        final String json = JsonReport.render(report);
        assertTrue(json.contains("\"log\":\"\",\"log_problem\":\"no such directory: " + log.getParent() + "\""), json);
        assertEquals(1, warnings.size(), warnings.toString());
    }

    @Test
    void aLogThatStoppedPartWayIsNamedAsIncomplete() throws Exception {
        final Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "needs /dev/full");
        final String text = TextReport.render(reportOn(full));
        assertTrue(text.contains("  host log: /dev/full, incomplete (writing failed: No space left on device)"), text);
    }
}
