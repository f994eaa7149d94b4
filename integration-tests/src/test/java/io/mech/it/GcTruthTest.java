package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Causes from the first millisecond, on every collector and JDK: a GC-heavy host's collections
 * are put down to gc from its first interval, checked against the JVM's own {@code -Xlog:safepoint},
 * with mech's defaults, whose JFR stream records only after the host's first second. What stopped
 * the JVM before the meter began is in the report too, from HotSpot's counters.
 */
class GcTruthTest {

    /** One safepoint line of -Xlog:safepoint (17, 21 and 25 print the time at the safepoint in ns). */
    private static final Pattern SAFEPOINT = Pattern.compile("^\\[([0-9]+)ms\\].*Safepoint \"([A-Za-z0-9]+)\".*At safepoint: ([0-9]+) ns");

    /** A pause shorter than this is under the default hiccup.attribute-above of 2 ms, plus the meter's round. */
    private static final long COUNTED_NANOS = 3_000_000L;
    /**
     * A pause at least this long is most of the stall it falls in, so the stall is gc. A shorter
     * one can be the lesser part of a stall that the wait for a core after it makes longer, on a
     * busy 2-core machine: that stall is os, as a cause's time is its stalls' (G1's 3 to 10 ms
     * young pauses, 62 of 379 ms in one CI run).
     */
    private static final long DOMINANT_NANOS = 10_000_000L;
    /** How far apart the JVM's uptime in -Xlog and the meter's start from HotSpot's start time may read. */
    private static final long CLOCKS_MILLIS = 5L;
    /** What mech's stop may take before the report measures its run: pauses in it may fall after the meter stopped. */
    private static final long STOP_MILLIS = 1_000L;

    @TempDir
    Path dir;

    static Stream<Arguments> collectors() {
        return Jdks.all().flatMap(jdk -> Stream.of("Serial", "Parallel", "G1", "Shenandoah", "Z")
            .map(gc -> Arguments.of(jdk, gc)));
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("collectors")
    void collectionsAreGcFromTheFirstInterval(final Path jdk, final String collector) throws Exception {
        final Path json = dir.resolve("report.json");
        final Path safepoints = dir.resolve("safepoint.log");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk,
            "prometheus=off,report=off,hiccup.log=,report.json=" + json,
            "-XX:+Use" + collector + "GC", "-Xmx1g", "-Xlog:safepoint:file=" + safepoints + ":uptimemillis",
            "-jar", Paths.examplesJar().toString(), "gc-pause", "large-live-set", "--seconds", "3"), 120);
        assertEquals(0, result.exit(), result.err());

        final String report = Files.readString(json);
        // mech's run began after the JVM's, so a pause logged a stop's time before its end at the
        // JVM's uptime ended while the meter ran; one during the JVM's exit is none of its.
        final long ranMillis = ReportRows.number(report, "run_ms").longValueExact();
        // the meter starts after premain, behind a busy machine's run queue: what stopped the JVM
        // before it is the counters' to tell, and the report's unmetered figures say it
        final long meterMillis = ReportRows.number(report, "unmetered", "vm_ms").longValueExact();
        final double unmeteredGcMillis = ReportRows.number(report, "unmetered", "gc_ms").doubleValue();
        long gcPauseNanos = 0;
        long dominantNanos = 0;
        long surelyBeforeNanos = 0;
        long maybeBeforeNanos = 0;
        for (final String line : Files.readAllLines(safepoints)) {
            final Matcher m = SAFEPOINT.matcher(line);
            final long nanos = m.find() ? Long.parseLong(m.group(3)) : 0;
            if (nanos == 0 || !collectorOperation(m.group(2))) {
                continue;
            }
            final long endMillis = Long.parseLong(m.group(1));
            surelyBeforeNanos += endMillis <= meterMillis - CLOCKS_MILLIS ? nanos : 0;
            maybeBeforeNanos += endMillis <= meterMillis + CLOCKS_MILLIS ? nanos : 0;
            if (nanos >= COUNTED_NANOS && endMillis - nanos / 1_000_000 > meterMillis + CLOCKS_MILLIS) {
                gcPauseNanos += nanos;
                // the meter stops before the report, by up to the stop's budget of 500 ms
                dominantNanos += nanos >= DOMINANT_NANOS && endMillis <= ranMillis - STOP_MILLIS ? nanos : 0;
            }
        }
        // within a millisecond: ZGC's collector counter times a 20 us pause as 13 us
        assertTrue(unmeteredGcMillis >= 0.9 * surelyBeforeNanos / 1e6 - 1 && unmeteredGcMillis <= maybeBeforeNanos / 1e6 + 1,
            String.format("the counters' gc before the meter (%d ms into the JVM), %.3f ms, against -Xlog:safepoint's %.3f to %.3f ms: %s",
                meterMillis, unmeteredGcMillis, surelyBeforeNanos / 1e6, maybeBeforeNanos / 1e6, report));
        final Map<String, Double> millis = ReportRows.byCause(report, "stall_ms");
        assertTrue(millis.keySet().containsAll(List.of("gc", "safepoint", "ttsp", "mech", "os", "unknown")), report);
        final double gcMillis = millis.get("gc");
        final double truth = gcPauseNanos / 1e6;
        final double dominant = dominantNanos / 1e6;
        // ZGC's and Shenandoah's pauses are a few milliseconds in all: what they stop is the
        // allocating threads, not the meter, and 90% of so little says nothing.
        if (dominant >= 50) {
            assertTrue(gcMillis >= 0.9 * dominant, String.format("gc %.1f ms of the %.1f ms that -Xlog:safepoint shows collections "
                + "of 10 ms or more stopping the host once the meter began: %s", gcMillis, dominant, report));
        }
        // Every stall above holds the safepoint's time and the meter's wait for a core after it.
        assertTrue(gcMillis <= 1.5 * truth + 50, String.format("gc %.1f ms, %.1f ms in -Xlog:safepoint once the meter began: %s",
            gcMillis, truth, report));
        final double stalled = millis.values().stream().mapToDouble(Double::doubleValue).sum();
        assertTrue(millis.get("unknown") <= 0.05 * stalled + 20, "unknown " + millis.get("unknown") + " of " + stalled + " ms: " + report);
    }

    /** The VM operations a collector runs, as mech's JFR tier tells them apart too. */
    private static boolean collectorOperation(final String operation) {
        return operation.startsWith("G1") || operation.startsWith("Z") || operation.startsWith("Shenandoah")
            || operation.contains("GC") || operation.contains("Collect");
    }
}
