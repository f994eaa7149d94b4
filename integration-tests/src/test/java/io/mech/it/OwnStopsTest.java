package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
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
 * mech's own stops are told whatever the stalls around them were put down to: the lock probe
 * retransforms the JDK's two queued synchronizers as it starts, a RedefineClasses safepoint, and
 * the report's self section gives the time the JVM stood stopped while that call ran, from
 * HotSpot's counters, under {@code -javaagent} and attached. {@code -Xlog:safepoint} of the same
 * host is the truth it is held to.
 */
class OwnStopsTest {

    private static final String OPTIONS = "prometheus=off,hiccup.log=,report=off,report.json=";
    /** Long enough for the lock probe's weaving, which waits a second under -javaagent, on a busy machine. */
    private static final String HOST_MILLIS = "4000";
    /** How the self section's line of mech's own stops begins. */
    private static final String STOPS_LINE = "mech's own stops: ";
    private static final Pattern STOPS = Pattern.compile("RetransformClasses x([0-9]+): ([0-9]+) safepoints?, ([0-9.]+) ms");
    /**
     * One RedefineClasses safepoint in the host's -Xlog:safepoint: the wait to reach it and the
     * time at it (JDK 17 and 21 log a cleanup between them, 25 a leaving after).
     */
    private static final Pattern LOGGED = Pattern.compile("Safepoint \"RedefineClasses\", Time since last: [0-9]+ ns, "
        + "Reaching safepoint: ([0-9]+) ns, (?:Cleanup: [0-9]+ ns, )?At safepoint: ([0-9]+) ns");

    @TempDir
    Path dir;

    @Test
    void theLockProbesRetransformationAtStartIsTimed() throws Exception {
        final Path json = dir.resolve("started.json");
        final Path log = dir.resolve("safepoints.log");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")), OPTIONS + json,
            "-Xlog:safepoint:file=" + log, "-cp", Paths.testClasses(), SleepingHost.class.getName(), HOST_MILLIS), 60);
        assertEquals(0, result.exit(), result.err());
        assertStopsMatchTheLog(json, log, result.err());
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void anAttachedMechsRetransformationIsTimed(final Path jdk) throws Exception {
        final Path json = dir.resolve("attached.json");
        final Path log = dir.resolve("safepoints.log");
        final Forked host = Forked.start(dir, List.of(Jdks.java(jdk), "-Xlog:safepoint:file=" + log, "-cp", Paths.testClasses(),
            SleepingHost.class.getName(), HOST_MILLIS));
        host.awaitJvmStarted();
        final Forked.Result attached = Forked.run(dir, List.of(Jdks.java(jdk), "-jar", Paths.mechJar().toString(), "attach",
            Long.toString(host.pid()), OPTIONS + json), 60);
        assertEquals(0, attached.exit(), attached.err());
        final Forked.Result result = host.await(60);
        assertEquals(0, result.exit(), result.err());
        assertStopsMatchTheLog(json, log, result.err());
    }

    /**
     * The self section names the retransformation with at least the safepoints and the time the
     * JVM logged for RedefineClasses: mech's figure is the counters' move over the whole call, so
     * it holds every such safepoint (and any other that fell within the call), to its own
     * rounding to 10 us.
     */
    private static void assertStopsMatchTheLog(final Path json, final Path log, final String err) throws Exception {
        assertTrue(Files.exists(json), "no report.json: " + err);
        final String report = Files.readString(json);
        final Matcher stops = STOPS.matcher(ReportRows.lines(report, "self").stream().filter(line -> line.startsWith(STOPS_LINE))
            .findFirst().orElse(""));
        assertTrue(stops.find(), "no stops of mech's RetransformClasses in the self section: " + report);
        final Matcher logged = LOGGED.matcher(Files.readString(log));
        int safepoints = 0;
        long nanos = 0;
        while (logged.find()) {
            safepoints++;
            nanos += Long.parseLong(logged.group(1)) + Long.parseLong(logged.group(2));
        }
        assertTrue(safepoints >= 1, "the JVM logged the redefinition: " + Files.readString(log));
        assertTrue(Integer.parseInt(stops.group(1)) >= 1, stops.group());
        assertTrue(Integer.parseInt(stops.group(2)) >= safepoints, "every logged RedefineClasses safepoint is counted: "
            + stops.group() + " against " + safepoints);
        final double ms = Double.parseDouble(stops.group(3));
        assertTrue(ms * 1e6 >= nanos - 10_000, "the stops hold the logged " + nanos / 1e6 + " ms: " + stops.group());
    }
}
