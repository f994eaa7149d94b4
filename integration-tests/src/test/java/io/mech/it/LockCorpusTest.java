package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import corpus.LockCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The lock probe in the real mech.jar on the JDK's concurrent classes, driven by
 * {@link LockCorpus} in one JVM per JDK (17 and 25), judged both ways on what their authors
 * designed:
 * <ul>
 *   <li><b>Flagged.</b> {@link java.util.Hashtable} and {@link java.util.Collections#synchronizedMap}
 *       serialise every call on one monitor: four writers each block on it, and the probe has a
 *       monitor-contention row on {@code java.util.Hashtable} and on
 *       {@code java.util.Collections$SynchronizedMap} at the driver's own method (the first frame
 *       outside the JDK), not at the map's.</li>
 *   <li><b>Silent.</b> {@link java.util.concurrent.atomic.LongAdder}, {@link java.util.concurrent.ConcurrentHashMap}
 *       (reads, and {@code computeIfAbsent} of keys already first in their bins: no bin lock taken)
 *       and {@link java.util.concurrent.Exchanger} are lock-free by design: CAS retries, spins and
 *       the park of a thread waiting for a partner are not a lock held by another thread. The lock
 *       probe reports monitor blocks, monitor waits and inflations, parks on the JDK's locks
 *       (ReentrantLock, ReentrantReadWriteLock, StampedLock), and waits in the JDK's other
 *       synchronizers, an Exchanger's among them. Silent therefore means: no row of any kind at
 *       those drivers' methods, and no row naming their classes (LongAdder, Striped64, the
 *       ConcurrentHashMap and its nodes, Exchanger), while each driver demonstrably ran on four
 *       threads at once for 1.5 s; save the one row that is true, a {@code juc_wait} on the
 *       Exchanger at the exchanging driver: a thread parked there waiting for its partner, which is
 *       a wait, not contention. A ConcurrentHashMap writer that inserts does take its bin's
 *       monitor; a block there would be contention truly found, so the driver counts into keys
 *       the map already holds, as a map of counters does.</li>
 * </ul>
 */
class LockCorpusTest {

    /** The lock probe, little else to stop at exit: on a loaded machine mech's stop has 500 ms. */
    private static final String OPTIONS = "probes.locks=on,hiccup.log=,hiccup.causes=off,prometheus=off,report=off,report.json=";
    private static final String DRIVER = "corpus.LockCorpus.";
    private static final Set<String> LOCK_FREE_DRIVERS = Set.of("adderIncrements", "mapCounts", "mapReads", "exchangeBuffers");
    private static final String EXCHANGER = "java.util.concurrent.Exchanger";
    private static final Pattern RAN = Pattern.compile("ran=(\\w+) ops=(\\d+)");

    @TempDir
    Path dir;

    @ParameterizedTest(name = "on {0}")
    @MethodSource("io.mech.it.Jdks#all")
    void synchronizedMapsAreFlaggedAtTheCallerAndLockFreeDesignsAreNot(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk, OPTIONS + json));
        command.addAll(List.of("-cp", Paths.testClasses(), LockCorpus.class.getName()));
        final Forked.Result result = Forked.run(dir, command, 90);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe starts without a word");
        final String report = Files.readString(json);
        final List<Map<String, String>> rows = ReportRows.of(report, "locks");

        final Matcher ran = RAN.matcher(result.out());
        int drivers = 0;
        while (ran.find()) {
            drivers++;
            assertTrue(Long.parseLong(ran.group(2)) > 0, ran.group(1) + " ran: " + result.out());
        }
        assertEquals(6, drivers, result.out());

        for (final String[] flagged : new String[][] {{"java.util.Hashtable", "hashtableWriter"},
            {"java.util.Collections$SynchronizedMap", "synchronizedMapWriter"}}) {
            assertTrue(rows.stream().anyMatch(row -> row.get("kind").equals("monitor_enter") && row.get("class").equals(flagged[0])
                && row.get("site").startsWith(DRIVER + flagged[1] + ":")),
                "monitor contention on " + flagged[0] + " at the driver's " + flagged[1] + ": " + report);
        }
        for (final Map<String, String> row : rows) {
            final String site = row.getOrDefault("site", "");
            final String lockClass = row.get("class");
            if (row.get("kind").equals("juc_wait") && lockClass.equals(EXCHANGER) && site.startsWith(DRIVER + "exchangeBuffers:")) {
                continue;
            }
            assertTrue(LOCK_FREE_DRIVERS.stream().noneMatch(driver -> site.startsWith(DRIVER + driver + ":")),
                "a lock-free driver is silent: " + row + "\n" + report);
            assertTrue(!lockClass.startsWith("java.util.concurrent.atomic.") && !lockClass.startsWith("java.util.concurrent.ConcurrentHashMap")
                && !lockClass.equals(EXCHANGER), "a lock-free class is never blamed: " + row + "\n" + report);
        }
    }
}
