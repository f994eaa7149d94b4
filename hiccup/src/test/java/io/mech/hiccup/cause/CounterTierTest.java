package io.mech.hiccup.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.hiccup.VmCounters;
import io.mech.testing.Await;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The first tier of evidence: HotSpot's counters, read by the meter with each stall, name
 * collections as gc with no JFR at all, and a stall that no tier covers is unknown.
 */
class CounterTierTest {

    private static final long MS = 1_000_000L;
    /** Generous for a 2-core machine busy with other builds: the causes poll every 200 ms. */
    private static final long WAIT_NANOS = 20_000 * MS;

    @Test
    void fullCollectionsAreGcFromTheCountersAloneWithoutJfr() throws InterruptedException {
        final VmCounters counters = VmCounters.open();
        assertNotNull(counters);
        final HiccupRecorder recorder = HiccupRecorder.start(new HiccupSettings(MS, 100 * MS, 0, 2 * MS, null), counters, w -> { });
        final HiccupCauses causes = HiccupCauses.of(recorder, new OwnOperations(), null).start();
        try {
            final List<int[]> live = liveSet();
            awaitMeterRunning(recorder);
            final CauseTotals young = causes.totals();
            final long gcBefore = collectionMillis();
            for (int i = 0; i < 3; i++) {
                System.gc();
            }
            final long gcNanos = (collectionMillis() - gcBefore) * MS;
            // the full collections' stalls, and only theirs: the live set was built before
            await(() -> causes.totals().nanos(Cause.GC) - young.nanos(Cause.GC) >= gcNanos * 9 / 10, causes);
            final CauseTotals totals = causes.totals();
            assertTrue(totals.details(Cause.GC).keySet().stream().anyMatch(d -> d.contains("full collection")),
                "the collector named: " + totals.details(Cause.GC));
            assertEquals(0, totals.count(Cause.UNKNOWN), "the counters cover every stall: " + totals);
            assertTrue(live.size() > 0);
        } finally {
            causes.close();
            recorder.close();
        }
    }

    @Test
    void withNoTierAStallIsUnknownInTheTotalsAndTheLog() throws InterruptedException {
        final HiccupRecorder recorder = HiccupRecorder.start(new HiccupSettings(MS, 100 * MS, 0, 2 * MS, null), null, w -> { });
        final HiccupCauses causes = HiccupCauses.of(recorder, new OwnOperations(), null).start();
        try {
            final List<int[]> live = liveSet();
            awaitMeterRunning(recorder);
            System.gc();
            await(() -> causes.totals().count(Cause.UNKNOWN) >= 1, causes);
            final CauseTotals totals = causes.totals();
            // The OS may still be named on its own evidence (steal time on a shared machine); the collection is not.
            assertEquals(0, totals.count(Cause.GC), totals.toString());
            assertTrue(totals.details(Cause.UNKNOWN).containsKey(HiccupCauses.UNKNOWN_NO_TIER), totals.toString());
            causes.intervalClosed(System.currentTimeMillis() - 60_000, System.currentTimeMillis() + 1);
            long unknownInLog = 0;
            for (final Histogram h : AllocationStallLogTest.drained(causes, true)) {
                if (h.getTag().equals("unknown")) {
                    unknownInLog += h.getTotalCount();
                }
            }
            assertTrue(unknownInLog >= 1, "the log's Tag=unknown lines hold the stall");
            assertTrue(live.size() > 0);
        } finally {
            causes.close();
            recorder.close();
        }
    }

    /** Some 200 MB in small arrays: a full collection copies or marks them for tens of milliseconds. */
    private static List<int[]> liveSet() {
        final List<int[]> live = new ArrayList<>();
        for (int i = 0; i < 2_000_000; i++) {
            live.add(new int[20]);
        }
        return live;
    }

    private static long collectionMillis() {
        long total = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionTime());
        }
        return total;
    }

    /** Until the meter has samples in a closed interval: it runs, and its first counter reading is taken. */
    private static void awaitMeterRunning(final HiccupRecorder recorder) throws InterruptedException {
        Await.until("a sample of the meter", Duration.ofNanos(WAIT_NANOS), () -> recorder.snapshot().count() > 0);
    }

    private static void await(final BooleanSupplier condition, final HiccupCauses causes) throws InterruptedException {
        try {
            Await.until("the causes' totals to change", Duration.ofNanos(WAIT_NANOS), condition::getAsBoolean);
        } catch (final AssertionError e) {
            throw new AssertionError(e.getMessage() + "; they are " + causes.totals(), e);
        }
    }
}
