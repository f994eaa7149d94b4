package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.agent.report.JsonReport;
import io.mech.agent.report.Report;
import io.mech.agent.report.TextReport;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import java.nio.file.Files;
import java.nio.file.Path;
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
        final long deadline = System.nanoTime() + 10_000 * MS;
        while (hiccups.snapshot().intervals() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        hiccups.close();
        assertTrue(hiccups.snapshot().intervals() > 0, "an interval within 10 s");
        final Options options = Options.parse("report=stderr", new Properties(), Map.of(), warnings::add);
        return new Reporter(options, hiccups, null, null, List.of(), System.nanoTime()).gather();
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
