package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.PastPropertyHost;
import io.mech.testing.JsonReader;
import java.io.File;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code safepoint-delay} kernel under mech's defaults: a thread in one long
 * {@code System.arraycopy} holds every safepoint that another thread asks for, and the wait is
 * put down to {@code ttsp}, in the report and in the log's {@code Tag=ttsp} lines; the twin,
 * which copies the same bytes 8 KiB at a time, has a small fraction of that wait wherever the
 * JVM's own {@code -Xlog:safepoint} shows it has: beside busy threads the twin's copying thread
 * waits for a core before it reaches a poll, and the JVM itself logs seconds of reaching (1,559 ms
 * against bulk-copy's 5,017 ms, JDK 21 beside two busy threads on 2 cores). mech's ttsp is held to
 * that log in every case: never more than the JVM's safepoints took, and most of bulk-copy's
 * reaching. With the profiler on, the report's ttsp row names the copying method as the culprit, from most of the
 * samples taken while safepoints waited; the twin names no culprit unless the JVM's own
 * {@code -Xlog:safepoint} shows that it too kept a safepoint waiting for a sample's length (on a
 * busy shared machine a copying thread that lost its core can), and then only its own copy.
 */
class TimeToSafepointTest {

    /** What the profiler publishes once its time-to-safepoint session samples. */
    private static final String SAMPLING = "io.mech.profiler.ttsp.since";
    private static final String BULK_COPY = "io.mech.examples.safepoint.SafepointDelayKernel$BulkCopy.copy";
    private static final String CHUNKED_COPY = "io.mech.examples.safepoint.SafepointDelayKernel$ChunkedCopy.copy";
    /** The time each safepoint took to reach and its whole time, as -Xlog:safepoint prints them on 17, 21 and 25. */
    private static final Pattern SAFEPOINT_LINE = Pattern.compile("Reaching safepoint: ([0-9]+) ns.*Total: ([0-9]+) ns");
    /** The profiler samples a running thread every 10 ms of its CPU: a shorter wait seldom holds a sample. */
    private static final long SAMPLE_NANOS = 10_000_000L;
    /** The rounding of the report's figures. */
    private static final double SLACK_MS = 1;
    /** Bulk-copy's waits are 20-300 ms, each a stall: mech had 5,004 of the JVM's 5,017 ms beside two busy threads (JDK 21). */
    private static final double BULK_SHARE = 0.8;

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aThreadThatCannotReachASafepointIsTtspAndItsTwinIsNot(final Path jdk) throws Exception {
        final Ttsp bulk = ttsp(jdk, "bulk-copy", "");
        final Ttsp chunked = ttsp(jdk, "chunked-copy", "");
        assertTrue(bulk.stalls() >= 20, "stalls put down to ttsp under bulk-copy: " + bulk.stalls());
        assertAsTheJvmLoggedIt(bulk, chunked);
    }

    /**
     * mech's ttsp against the JVM's own log. A ttsp row counts whole the stalls that were mostly
     * time to safepoint, the operation that followed included, so it is no more than the logged
     * safepoints' whole time in either run: a surplus would be a stall put down to ttsp that no
     * safepoint explains. It is at least {@link #BULK_SHARE} of the logged reaching under
     * bulk-copy, whose waits are tens of milliseconds each, all past the meter's resolution. The
     * twin's is a quarter of bulk-copy's or less wherever the JVM's log has its reaching so.
     */
    private void assertAsTheJvmLoggedIt(final Ttsp bulk, final Ttsp chunked) throws Exception {
        final double bulkReach = reach("bulk-copy").total() / 1e6;
        final double twinReach = reach("chunked-copy").total() / 1e6;
        final double bulkSafepoints = reach("bulk-copy").safepoints() / 1e6;
        final double twinSafepoints = reach("chunked-copy").safepoints() / 1e6;
        assertTrue(bulk.millis() <= bulkSafepoints + SLACK_MS && chunked.millis() <= twinSafepoints + SLACK_MS, "ttsp " + bulk.millis()
            + " ms under bulk-copy, " + chunked.millis() + " ms under chunked-copy; safepoints by -Xlog:safepoint: "
            + bulkSafepoints + " and " + twinSafepoints + " ms");
        assertTrue(bulk.millis() >= bulkReach * BULK_SHARE, "ttsp " + bulk.millis() + " ms under bulk-copy, -Xlog:safepoint " + bulkReach + " ms");
        if (twinReach * 4 < bulkReach) {
            assertTrue(chunked.millis() * 4 < bulk.millis(), "ttsp " + chunked.millis() + " ms under chunked-copy, " + bulk.millis()
                + " ms under bulk-copy; -Xlog:safepoint: " + twinReach + " and " + bulkReach + " ms");
        }
    }

    /**
     * The profiler's time-to-safepoint sampling names the copy; its captures are kept out of the
     * way (a capture pauses the sampling: the probes' TtspSamplingTest shows the two take turns).
     */
    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void withTheProfilerOnTheReportNamesTheCopyAsTheCulpritAndTheTwinNone(final Path jdk) throws Exception {
        final String profiler = "profiler=on,hiccup.profiler-threshold=600s,profiler.dir=" + dir.resolve("captures") + ",";
        final Ttsp bulk = ttsp(jdk, "bulk-copy", profiler);
        final Ttsp chunked = ttsp(jdk, "chunked-copy", profiler);
        final Map<?, ?> culprit = bulk.firstCulprit();
        assertNotNull(culprit, "a culprit in bulk-copy's ttsp row: " + bulk.row());
        assertEquals(BULK_COPY, culprit.get("method"), bulk.row().toString());
        assertTrue(((String) culprit.get("in")).contains("arraycopy"), "in System.arraycopy or the JVM's copy stub: " + bulk.row());
        assertTrue(((BigDecimal) culprit.get("share")).doubleValue() >= 0.5, "the copy holds most samples: " + bulk.row());
        // A window is sampled in proportion to its length (a sample every 10 ms of a thread's CPU):
        // the twin's sub-millisecond windows seldom are, too seldom to name anything. A window the
        // JVM itself logged as long is one the twin's copy really held, so naming that is right.
        final long twinReach = reach("chunked-copy").longest();
        final Map<?, ?> twinCulprit = chunked.firstCulprit();
        if (twinReach < SAMPLE_NANOS) {
            assertNull(twinCulprit, "no culprit beside the twin, whose longest time to safepoint in -Xlog:safepoint was "
                + twinReach + " ns: " + chunked.row());
        } else if (twinCulprit != null) {
            assertEquals(CHUNKED_COPY, twinCulprit.get("method"), "the twin's only culprit is its own copy, which held a safepoint "
                + twinReach + " ns by -Xlog:safepoint: " + chunked.row());
        }
        if (reach("chunked-copy").total() * 4 < reach("bulk-copy").total()) {
            assertTrue(chunked.culpritSamples() * 4 < bulk.culpritSamples(), "samples while safepoints waited: " + chunked.culpritSamples()
                + " under chunked-copy, " + bulk.culpritSamples() + " under bulk-copy");
        }
        assertAsTheJvmLoggedIt(bulk, chunked);
    }

    /**
     * The ttsp row of one run's JSON report; its log has ttsp lines too. With the profiler on, the
     * kernel runs on 4 s once the profiler samples: async-profiler loads a second and more after
     * start-up, and beside two busy threads a 6 s host ended before it had sampled anything.
     */
    private Ttsp ttsp(final Path jdk, final String variant, final String options) throws Exception {
        final Path json = dir.resolve(variant + ".json");
        final Path log = dir.resolve(variant + ".hlog");
        final String mech = options + "prometheus=off,report=off,hiccup.interval=1s,report.json=" + json + ",hiccup.log=" + log;
        final String safepoints = "-Xlog:safepoint:file=" + safepointLog(variant);
        final Forked.Result result;
        if (options.contains("profiler=on")) {
            // 60 s: far beyond the profiler's start on a busy machine; the host says when it waited in vain
            result = Forked.run(dir, Forked.javaWithMech(jdk, mech, "-Xmx1g", safepoints, "-cp", Paths.examplesJar() + File.pathSeparator
                + Paths.testClasses(), PastPropertyHost.class.getName(), SAMPLING, "60000", "4000",
                "safepoint-delay:" + variant, "--seconds", "70"), 120);
            assertTrue(result.out().contains(SAMPLING + " came") && result.out().contains("kernel ran on"),
                "the kernel ran while the profiler sampled: " + result.out());
        } else {
            // 6 s: the causes name ttsp from HotSpot's counters from the first interval
            result = Forked.run(dir, Forked.javaWithMech(jdk, mech, "-Xmx1g", safepoints, "-jar", Paths.examplesJar().toString(),
                "safepoint-delay:" + variant, "--seconds", "6"), 120);
        }
        assertEquals(0, result.exit(), result.err());
        assertFalse(result.out().contains("[INFO]") || result.out().contains("Profiling"),
            "async-profiler says nothing on the host's output: " + result.out());
        final String report = Files.readString(json);
        final Ttsp ttsp = ((List<?>) JsonReader.object(report).get("causes")).stream().map(row -> new Ttsp((Map<?, ?>) row))
            .filter(row -> "ttsp".equals(row.row().get("cause"))).findFirst().orElseThrow(() -> new AssertionError("ttsp in " + report));
        if (ttsp.stalls() > 0) {
            assertTrue(HdrTools.max(HdrTools.processLog(log, "-tag", "ttsp")) > 0, "the log's ttsp lines hold the stalls");
        }
        return ttsp;
    }

    private Path safepointLog(final String variant) {
        return dir.resolve(variant + ".safepoints");
    }

    /**
     * The variant's run's safepoints by the JVM's own log, in ns: the time they took to reach in
     * all and at most, and their whole time, reaching included.
     */
    private record Reach(long total, long longest, long safepoints) {
    }

    private Reach reach(final String variant) throws Exception {
        final Matcher m = SAFEPOINT_LINE.matcher(Files.readString(safepointLog(variant)));
        long total = 0;
        long longest = -1;
        long safepoints = 0;
        while (m.find()) {
            final long nanos = Long.parseLong(m.group(1));
            total += nanos;
            longest = Math.max(longest, nanos);
            safepoints += Long.parseLong(m.group(2));
        }
        assertTrue(longest >= 0, "-Xlog:safepoint logged the " + variant + " run's safepoints");
        return new Reach(total, longest, safepoints);
    }

    /** One run's ttsp row, as its JSON report has it. */
    private record Ttsp(Map<?, ?> row) {

        double millis() {
            return ((BigDecimal) row.get("stall_ms")).doubleValue();
        }

        long stalls() {
            return ((BigDecimal) row.get("stalls")).longValueExact();
        }

        /** The culprit the row names first; null when it names none. */
        Map<?, ?> firstCulprit() {
            final List<?> culprits = (List<?>) row.get("culprits");
            return culprits == null || culprits.isEmpty() ? null : (Map<?, ?>) culprits.get(0);
        }

        /** The samples taken on running threads while safepoints waited; 0 when the row names no culprit. */
        long culpritSamples() {
            final Object samples = row.get("culprit_samples");
            return samples == null ? 0 : ((BigDecimal) samples).longValueExact();
        }
    }
}
