package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** hiccup.control=true: an idle JVM beside the host logs to {@code <log>.c} and ends with the host. */
class ControlJvmTest {

    @TempDir
    Path dir;

    @Test
    void controlJvmLogsBesideTheHostAndEndsWithIt() throws Exception {
        final Path log = dir.resolve("host.hlog");
        final Path json = dir.resolve("report.json");
        final Forked host = Forked.start(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "hiccup.interval=500ms,hiccup.control=true,report=off,report.json=" + json + ",hiccup.log=" + log,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "2500"));
        final Forked.Result result = host.await(30);
        assertEquals(0, result.exit(), result.err());

        final Path control = dir.resolve("host.hlog.c");
        assertTrue(HdrTools.intervalLines(control).size() >= 2, "control intervals");
        assertTrue(HdrTools.max(HdrTools.processLog(control)) >= 0, "HistogramLogProcessor reads the control log");
        final String report = Files.readString(json);
        assertTrue(ReportRows.array(report, "hiccups").stream().anyMatch(row -> row.get("jvm").equals("control")), report);
        Await.until("the control JVM ended", Duration.ofMillis(500), () -> ProcessHandle.allProcesses().noneMatch(p -> p.info().arguments()
            .map(a -> String.join(" ", a).contains(control.toString())).orElse(false)));
    }
}
