package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.CollectingHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lean configuration: with the lock probe off, the causes need no JFR recording until a stall
 * needs one. Collections are gc from HotSpot's counters while no recording runs, and a VM
 * operation the counters cannot name starts the recording that names the next ones.
 */
class LeanCausesTest {

    private static final Pattern FULL_PAUSE = Pattern.compile("Pause Full .* ([0-9.]+)ms$");
    private static final String LEAN = "probes.locks=off,prometheus=off,report=off,hiccup.log=,report.json=";

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void withTheLockProbeOffNoJfrStartsAndCollectionsAreGc(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final Path gcLog = dir.resolve("gc.log");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk, LEAN + json,
            "-XX:+UseParallelGC", "-Xmx1g", "-Xlog:gc:file=" + gcLog, "-cp", Paths.testClasses(), CollectingHost.class.getName(),
            "4000", "5"), 60);
        assertEquals(0, result.exit(), result.err());
        final String report = Files.readString(json);
        assertTrue(result.out().contains(CollectingHost.JFR_STARTED + "false"), "no JFR recording started: " + result.out() + report);

        double fullPauses = 0;
        int count = 0;
        for (final String line : Files.readAllLines(gcLog)) {
            final Matcher pause = FULL_PAUSE.matcher(line);
            if (pause.find()) {
                fullPauses += Double.parseDouble(pause.group(1));
                count++;
            }
        }
        assertEquals(5, count, "five full collections in -Xlog:gc: " + Files.readString(gcLog));
        final Double gc = ReportRows.byCause(report, "stall_ms").get("gc");
        assertTrue(gc != null, report);
        // every full pause is tens of milliseconds and the meter's stall over it is gc; 10% for the stalls it shares with the OS
        assertTrue(gc >= 0.9 * fullPauses, "gc " + gc + " ms of " + fullPauses + " ms of full pauses: " + report);
        assertTrue(report.contains("JFR not started, for no stall needed it"), report);
    }

    /**
     * Inspects the host's heap with jcmd and checks that it did.
     *
     * @return the histogram's last line, its total
     */
    private static String inspectHeap(final Forked host, final Path jdk) throws Exception {
        final String said = host.jcmd(jdk, "GC.class_histogram", "-all").strip();
        assertTrue(said.contains("Total"), "jcmd inspected the heap: " + said);
        return said.substring(said.lastIndexOf('\n') + 1);
    }

    @Test
    void aVmOperationTheCountersCannotNameStartsJfr() throws Exception {
        final Path jdk = Path.of(System.getProperty("java.home"));
        final Path json = dir.resolve("report.json");
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk, LEAN + json,
            "-Xmx1g", "-cp", Paths.testClasses(), CollectingHost.class.getName(), "60000", "0"));
        host.awaitMechStarted(jdk);
        assertFalse(host.jcmd(jdk, "VM.system_properties").contains("io.mech.jfr.since="), "no JFR after the first second");
        // a heap inspection without a collection: a safepoint of tens of milliseconds that no collector's counter times
        final String histogram = inspectHeap(host, jdk);
        try {
            host.awaitJfrRecording(jdk);
        } catch (final AssertionError none) {
            host.terminate();
            host.await(30);
            throw new AssertionError("no JFR after the heap inspection (jcmd ended: " + histogram + "); the report: "
                + Files.readString(json), none);
        }
        host.terminate();
        final Forked.Result result = host.await(30);
        assertEquals(143, result.exit(), result.err());
        final String report = Files.readString(json);
        assertTrue(report.contains("JFR started on demand: a "), report);
        assertTrue(report.contains("unnamed by the counters"), report);
        assertEquals(List.of(), result.mechLines().stream().filter(line -> !line.startsWith("mech report")).toList(), result.err());
    }
}
