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
 * mech's own stops are put down to mech from the first: the lock probe retransforms the JDK's
 * two queued synchronizers as it starts, a safepoint that stops the host for a millisecond or
 * more, and mech times the call itself, with or without JFR, attached or loaded at start. The
 * meter wakes every 100 us here, so that a stop that short meets one of its rounds.
 */
class OwnStallsTest {

    private static final String SENSITIVE = "hiccup.resolution=100us,hiccup.attribute-above=100us,prometheus=off,hiccup.log=";
    /** Long enough for the lock probe's weaving, which waits a second under -javaagent, on a busy machine. */
    private static final String HOST_MILLIS = "5000";
    private static final Pattern MECH = Pattern.compile(
        "\\{\"cause\":\"mech\",\"stall_ms\":([0-9.]+),\"stalls\":([0-9]+),\"longest_ms\":[0-9.]+,\"details\":\\{([^}]*)\\}");

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void anAttachedMechsRetransformationIsMech(final Path jdk) throws Exception {
        final Forked host = Forked.start(dir, List.of(Jdks.java(jdk), "-cp", Paths.testClasses(),
            SleepingHost.class.getName(), HOST_MILLIS));
        host.awaitJvmStarted();
        final Path json = dir.resolve("attached.json");
        final Forked.Result attached = Forked.run(dir, List.of(Jdks.java(jdk), "-jar", Paths.mechJar().toString(), "attach",
            Long.toString(host.pid()), SENSITIVE + ",report.json=" + json), 30);
        assertEquals(0, attached.exit(), attached.err());
        final Forked.Result result = host.await(30);
        assertEquals(0, result.exit(), result.err());
        assertRetransformationIsMech(json, result.err());
    }

    @Test
    void mechsRetransformationAtStartIsMech() throws Exception {
        final Path json = dir.resolve("started.json");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            SENSITIVE + ",report.json=" + json, "-cp", Paths.testClasses(), SleepingHost.class.getName(), HOST_MILLIS), 30);
        assertEquals(0, result.exit(), result.err());
        assertRetransformationIsMech(json, result.err());
    }

    private static void assertRetransformationIsMech(final Path json, final String err) throws Exception {
        assertTrue(Files.exists(json), "no report.json: " + err);
        final String report = Files.readString(json);
        final Matcher mech = MECH.matcher(report);
        assertTrue(mech.find(), "no mech cause in " + report);
        final int causes = report.indexOf("\"causes\":");
        assertTrue(Integer.parseInt(mech.group(2)) >= 1 && Double.parseDouble(mech.group(1)) > 0,
            "no stall put down to mech's retransformation: " + report.substring(Math.max(0, causes)) + "\n" + err);
        assertTrue(mech.group(3).contains("\"RetransformClasses\":"), "the stall is named after the operation: " + mech.group(0));
    }
}
