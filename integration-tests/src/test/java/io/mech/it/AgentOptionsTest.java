package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad options and unwritable logs warn once and never stop the host. */
@QuietHosts
class AgentOptionsTest {

    @TempDir
    Path dir;

    /** Any free port: a class running beside this one may hold 9464, and its warning would be one line more. */
    private Forked.Result runHost(final String options) throws Exception {
        return Forked.run(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")), "prometheus.port=0," + options,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "300"), 30);
    }

    @Test
    void unknownOptionWarnsOnceAndTheHostRunsOn() throws Exception {
        final Forked.Result result = runHost("report=off,hiccup.log=" + dir.resolve("a.hlog") + ",hiccup.intervall=1s");
        assertEquals(0, result.exit());
        assertTrue(result.out().contains("host done"));
        final List<String> lines = result.mechLines();
        assertEquals(1, lines.size(), result.err());
        assertTrue(lines.get(0).contains("'hiccup.intervall'"), lines.get(0));
        assertTrue(Files.exists(dir.resolve("a.hlog")), "mech still runs with the valid options");
    }

    @Test
    void badValueWarnsOnceAndTheHostRunsOn() throws Exception {
        final Forked.Result result = runHost("report=off,hiccup.log=,hiccup.resolution=fast");
        assertEquals(0, result.exit());
        final List<String> lines = result.mechLines();
        assertEquals(1, lines.size(), result.err());
        assertTrue(lines.get(0).contains("'hiccup.resolution'") && lines.get(0).contains("duration"), lines.get(0));
    }

    @Test
    void unwritableLogDirectoryWarnsOnceAndTheReportStillComes() throws Exception {
        final Path log = dir.resolve("missing/dir/h.hlog");
        final Path json = dir.resolve("report.json");
        final Forked.Result result = runHost("report=off,report.json=" + json + ",hiccup.log=" + log);
        assertEquals(0, result.exit());
        assertTrue(result.out().contains("host done"));
        final List<String> lines = result.mechLines();
        assertEquals(1, lines.size(), result.err());
        assertTrue(lines.get(0).contains(log.toString()) && lines.get(0).contains("in memory"), lines.get(0));
        final String report = Files.readString(json);
        final List<Map<String, String>> hiccups = ReportRows.array(report, "hiccups");
        assertTrue(hiccups.stream().anyMatch(row -> row.get("jvm").equals("host")), report);
        assertTrue(hiccups.stream().allMatch(row -> Long.parseLong(row.get("samples")) > 0), "recorded in memory: " + report);
    }

    @Test
    void disabledMechSaysNothingAndWritesNothing() throws Exception {
        final Forked.Result result = runHost("enabled=false,hiccup.log=" + dir.resolve("off.hlog"));
        assertEquals(0, result.exit());
        assertEquals(List.of(), result.mechLines());
        assertTrue(Files.notExists(dir.resolve("off.hlog")));
    }

    @Test
    void reportGoesToStderrByDefault() throws Exception {
        final Forked.Result result = runHost("hiccup.log=" + dir.resolve("r.hlog"));
        assertEquals(0, result.exit());
        assertTrue(result.err().contains("mech report: pid "), result.err());
        assertTrue(result.err().contains("p99.9"), result.err());
    }
}
