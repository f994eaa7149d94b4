package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.libraries.GuavaStripes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lock probe on Guava 33's {@code Striped.lock}, driven by {@link GuavaStripes}: one hot
 * stripe that 8 threads share is flagged, a {@code juc_lock} row on {@code ReentrantLock} (the
 * class of Guava's padded stripes) at the driver's method that called {@code lock()}, with as many
 * the threads' own {@code tryLock()} found the stripe held, and they waited for it; the twin,
 * whose 8 threads each take a stripe of their own, never found one held, and has no row at its method.
 * JDKs in turn: this corpus case was already right, and stays so.
 * The probe reads JFR from the first second ({@code probes.locks.jfr=on}): each case runs 2 s,
 * and on a busy machine JFR opened at the first contention recorded too little of the hot one
 * (no row in two of two runs beside a fresh clone's build and two busy threads). JFR on demand
 * is LockProbeTest's.
 */
class StripedLockTest {

    private static final String OPTIONS = "probes.locks=on,probes.locks.jfr=on,hiccup.log=,hiccup.causes=off,prometheus=off,report=off,report.json=";
    private static final Pattern CASE = Pattern.compile("case=(\\w+) ops=(\\d+) contended=(\\d+) lock_ms=([0-9.]+)");
    private static final String REENTRANT_LOCK = "java.util.concurrent.locks.ReentrantLock";
    /** Each case's method that calls lock(). */
    private static final Map<String, String> CALLERS = Map.of("hotStripe", "hotUpdate", "spreadStripes", "spreadUpdate");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void aHotStripeIsFlaggedAtItsCallerAndSpreadStripesAreNot(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk, OPTIONS + json));
        command.addAll(List.of("-cp", Paths.testClassesWith(com.google.common.util.concurrent.Striped.class),
            GuavaStripes.class.getName(), "2"));
        final Forked.Result result = Forked.run(dir, command, 90);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe starts without a word");
        final List<Map<String, String>> rows = ReportRows.of(Files.readString(json), "locks");
        final Matcher each = CASE.matcher(result.out());
        int cases = 0;
        while (each.find()) {
            cases++;
            final String name = each.group(1);
            final long contended = Long.parseLong(each.group(3));
            final List<Map<String, String>> here = rows.stream()
                .filter(row -> row.getOrDefault("site", "").startsWith(GuavaStripes.class.getName() + "." + CALLERS.get(name) + ":")).toList();
            if (name.equals("hotStripe")) {
                // the holder re-takes the stripe at once, so few asks find it held, and those wait long
                assertTrue(contended >= 100 && Double.parseDouble(each.group(4)) >= 1_000,
                    "8 threads on one stripe find it held, and wait for it a second and more in all: " + each.group());
                assertTrue(here.stream().anyMatch(row -> row.get("kind").equals("juc_lock") && row.get("class").equals(REENTRANT_LOCK)),
                    "the hot stripe is flagged at its caller: " + here + "\n" + rows);
            } else {
                assertEquals(0, contended, "the spread stripes are not shared: " + each.group());
                assertEquals(List.of(), here, "nothing at the spread stripes' caller: " + rows);
            }
        }
        assertEquals(2, cases, result.out());
    }
}
