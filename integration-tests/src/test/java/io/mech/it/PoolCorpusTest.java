package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import corpus.PoolCorpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.h2.Driver;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * The lock probe in the real mech.jar on a real connection pool, driven by {@link PoolCorpus}:
 * HikariCP 7.1 over an in-memory H2, 16 workers.
 * <ul>
 *   <li><b>Flagged.</b> On a pool of 2 the workers wait in HikariCP's borrow, parked in its
 *       SynchronousQueue hand-off: the probe has a {@code juc_wait} row on
 *       {@code java.util.concurrent.SynchronousQueue} at {@code ConcurrentBag.borrow} (the first
 *       frame outside the JDK), whose total lies between half the time the workers timed in their
 *       borrows of 1 ms or more (the probe's threshold; JFR delivers late and the host ends) and
 *       all the time they timed in borrows (a park lies within its borrow).</li>
 *   <li><b>Silent.</b> On a pool of 16 no borrow waits for a connection: no such row. In both
 *       hosts, two executors' idle workers parked on their queues (a LinkedBlockingQueue and a
 *       SynchronousQueue, the same class as the borrow's) under the host's own thread factory are
 *       never shown: no row at the factory's method.</li>
 * </ul>
 * The hosts take the JDKs in turn (starved on 17, roomy on 21, starved on 25), as the lock sweep
 * does: SynchronousQueue's internals changed in JDK 21, so the starved pool runs on both sides.
 * The probe reads JFR from the first second ({@code probes.locks.jfr=on}): waits are JFR's alone
 * to see, and a pool's waits are no contention, so under the default JFR on demand they start no
 * stream of their own.
 */
class PoolCorpusTest {

    private static final String OPTIONS = "probes.locks=on,probes.locks.jfr=on,hiccup.log=,hiccup.causes=off,prometheus=off,report=off,report.json=";
    private static final Pattern TRUTH = Pattern.compile(
        "pool=(\\d+) transactions=\\d+ seconds=\\S+ borrows=(\\d+) borrow_ms=(\\S+) long_borrow_ms=(\\S+) "
            + "longest_borrow_ms=\\S+ idle_tasks=(\\d+)");

    @TempDir
    Path dir;

    static Stream<Arguments> hosts() {
        final List<Path> jdks = Jdks.all().toList();
        final int[] pools = {2, 16, 2};
        final List<Arguments> runs = new ArrayList<>();
        for (int i = 0; i < pools.length; i++) {
            runs.add(Arguments.of(jdks.get(i % jdks.size()), pools[i]));
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "pool of {1} on {0}")
    @MethodSource("hosts")
    void aStarvedPoolsBorrowIsShownAndIdleWorkersAreNot(final Path jdk, final int pool) throws Exception {
        final Path json = dir.resolve("report.json");
        final List<String> command = new ArrayList<>(Forked.javaWithMech(jdk, OPTIONS + json));
        command.addAll(List.of("-cp", Paths.testClassesWith(HikariDataSource.class, Driver.class, LoggerFactory.class),
            PoolCorpus.class.getName(), String.valueOf(pool)));
        final Forked.Result result = Forked.run(dir, command, 90);
        assertEquals(0, result.exit(), result.err());
        assertEquals(List.of(), result.mechLines(), "the probe starts without a word");
        final Matcher truth = TRUTH.matcher(result.out());
        assertTrue(truth.find(), result.out());
        assertEquals(pool, Integer.parseInt(truth.group(1)), result.out());
        assertTrue(Long.parseLong(truth.group(2)) > 0 && Long.parseLong(truth.group(5)) > 0, "the host ran: " + result.out());
        final double borrowMillis = Double.parseDouble(truth.group(3));
        final double longBorrowMillis = Double.parseDouble(truth.group(4));

        final String report = Files.readString(json);
        final List<Map<String, String>> rows = ReportRows.of(report, "locks");
        final List<Map<String, String>> borrowWaits = rows.stream().filter(row -> row.get("kind").equals("juc_wait")
            && row.get("class").equals(PoolCorpus.HANDOFF) && row.get("site").startsWith(PoolCorpus.BORROW + ":")).toList();
        if (pool < 16) {
            assertEquals(1, borrowWaits.size(), "one wait row at the borrow: " + result.out() + "\n" + report);
            final double seen = Double.parseDouble(borrowWaits.get(0).get("total_ms"));
            assertTrue(seen >= longBorrowMillis / 2 && seen <= borrowMillis * 1.02,
                "mech's " + seen + " ms against the host's own " + longBorrowMillis + " ms in borrows of 1 ms or more, "
                    + borrowMillis + " ms in all: " + result.out() + "\n" + report);
        } else {
            assertEquals(List.of(), borrowWaits, "no borrow waits on a pool as large as its workers: " + result.out() + "\n" + report);
        }
        for (final Map<String, String> row : rows) {
            assertTrue(!row.getOrDefault("site", "").startsWith(PoolCorpus.POOL_THREAD + ":"),
                "an idle worker is not shown: " + row + "\n" + report);
        }
    }
}
