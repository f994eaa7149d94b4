package io.mech.hiccup.cause;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AttributionSplitTest {

    private static final long MS = 1_000_000L;
    private static final long SLACK = HiccupCauses.SLACK_NANOS;

    @Test
    void aGcPauseCoveringTheStallMakesItGc() {
        final Map<Cause, Long> portions = HiccupCauses.split(100 * MS, 150 * MS,
            List.of(new PauseWindow(100 * MS, 149 * MS, Cause.GC, "G1New (G1 Evacuation Pause)")));
        assertEquals(50 * MS, portions.get(Cause.GC), "the slack closes the last millisecond");
        assertEquals(0, portions.get(Cause.OS));
        assertEquals(Cause.GC, HiccupCauses.mainCause(portions));
    }

    @Test
    void nothingInTheJvmMakesItOs() {
        final Map<Cause, Long> portions = HiccupCauses.split(100 * MS, 400 * MS,
            List.of(new PauseWindow(380 * MS, 385 * MS, Cause.GC, "G1New")));
        assertEquals(5 * MS + 2 * SLACK, portions.get(Cause.GC));
        assertEquals(300 * MS - 5 * MS - 2 * SLACK, portions.get(Cause.OS));
        assertEquals(Cause.OS, HiccupCauses.mainCause(portions));
    }

    @Test
    void gcComesBeforeTheSafepointThatRunsIt() {
        final Map<Cause, Long> portions = HiccupCauses.split(0, 40 * MS, List.of(
            new PauseWindow(5 * MS, 35 * MS, Cause.SAFEPOINT, "G1CollectForAllocation"),
            new PauseWindow(6 * MS, 34 * MS, Cause.GC, "G1New"),
            new PauseWindow(36 * MS, 38 * MS, Cause.SAFEPOINT, "ThreadDump")));
        assertEquals(30 * MS, portions.get(Cause.GC));
        // Widened by the slack, every pause together spans [4, 39] ms; the GC's [5, 35] is 30 of them.
        assertEquals(5 * MS, portions.get(Cause.SAFEPOINT));
        assertEquals(5 * MS, portions.get(Cause.OS));
        assertEquals(40 * MS, portions.values().stream().mapToLong(Long::longValue).sum());
        assertEquals(Cause.GC, HiccupCauses.mainCause(portions));
    }

    @Test
    void theWaitForASafepointIsTtspAndTheOperationKeepsItsOwnCause() {
        final Map<Cause, Long> portions = HiccupCauses.split(0, 30 * MS, List.of(
            new PauseWindow(2 * MS, 22 * MS, Cause.TTSP, JfrPauses.TTSP_DETAIL),
            new PauseWindow(22 * MS, 26 * MS, Cause.SAFEPOINT, "FindDeadlocks")));
        // The operation widened by the slack spans [21, 27] ms; the wait covers [1, 21] beyond it.
        assertEquals(6 * MS, portions.get(Cause.SAFEPOINT));
        assertEquals(20 * MS, portions.get(Cause.TTSP));
        assertEquals(4 * MS, portions.get(Cause.OS));
        assertEquals(Cause.TTSP, HiccupCauses.mainCause(portions));
    }

    @Test
    void overlappingPausesAreNotCountedTwice() {
        final Map<Cause, Long> portions = HiccupCauses.split(0, 20 * MS, List.of(
            new PauseWindow(2 * MS, 12 * MS, Cause.GC, "a"), new PauseWindow(8 * MS, 18 * MS, Cause.GC, "b")));
        assertEquals(18 * MS, portions.get(Cause.GC));
        assertEquals(2 * MS, portions.get(Cause.OS));
    }

    @Test
    void collectorOperationsAreGcAndOthersAreNot() {
        for (final String gc : List.of("G1CollectForAllocation", "G1PauseRemark", "ZMarkStart", "ShenandoahFinalMarkStartEvac",
            "ParallelGCFailedAllocation", "GenCollectForAllocation")) {
            assertEquals(true, JfrPauses.collectorOperation(gc), gc);
        }
        for (final String other : List.of("ThreadDump", "HandshakeAllThreads", "RedefineClasses", "Deoptimize", "JFROldObject")) {
            assertEquals(false, JfrPauses.collectorOperation(other), other);
        }
    }

    @Test
    void mechsOwnRedefinitionIsMechNotSafepointAndGcStillComesFirst() {
        final Map<Cause, Long> portions = HiccupCauses.split(0, 40 * MS, List.of(
            new PauseWindow(1 * MS, 21 * MS, Cause.MECH, "RedefineClasses"),
            new PauseWindow(15 * MS, 25 * MS, Cause.GC, "G1New"),
            new PauseWindow(30 * MS, 33 * MS, Cause.SAFEPOINT, "ThreadDump")));
        assertEquals(10 * MS + 2 * SLACK, portions.get(Cause.GC));
        assertEquals(14 * MS, portions.get(Cause.MECH), "from mech's window widened to 0 up to the widened GC pause at 14 ms");
        assertEquals(3 * MS + 2 * SLACK, portions.get(Cause.SAFEPOINT));
        assertEquals(40 * MS - portions.get(Cause.GC) - portions.get(Cause.MECH) - portions.get(Cause.SAFEPOINT), portions.get(Cause.OS));
        assertEquals(Cause.MECH, HiccupCauses.mainCause(portions));
    }

    private static Map<Cause, Long> counted(final long length, final long gcPause, final long atSafepoint, final long sync,
                                            final long mechCovered) {
        final Map<Cause, Long> portions = new EnumMap<>(Cause.class);
        for (final Cause cause : Cause.values()) {
            portions.put(cause, 0L);
        }
        final long rest = HiccupCauses.splitCounted(portions, length, gcPause, atSafepoint, sync, mechCovered, false);
        portions.put(Cause.UNKNOWN, rest);
        return portions;
    }

    @Test
    void mechsCallTakesItsSafepointAndTheWaitToReachItStaysTtsp() {
        final Map<Cause, Long> portions = counted(30 * MS, 0, 10 * MS, 15 * MS, 28 * MS);
        assertEquals(10 * MS, portions.get(Cause.MECH), "the operation");
        assertEquals(15 * MS, portions.get(Cause.TTSP), "a long call spans the host's other safepoints: whose wait it was is unknown");
        assertEquals(5 * MS, portions.get(Cause.UNKNOWN));
        assertEquals(Cause.TTSP, HiccupCauses.mainCause(portions));
    }

    @Test
    void aCollectionInTheStallKeepsItsWaitForThreadsAsTtsp() {
        final Map<Cause, Long> portions = counted(30 * MS, 10 * MS, 12 * MS, 5 * MS, 30 * MS);
        assertEquals(10 * MS, portions.get(Cause.GC));
        assertEquals(2 * MS, portions.get(Cause.MECH));
        assertEquals(5 * MS, portions.get(Cause.TTSP), "a collection's safepoint may be the one threads were slow to reach");
        assertEquals(13 * MS, portions.get(Cause.UNKNOWN));
    }

    @Test
    void withNoOperationOfMechsTheStopsKeepTheirCauses() {
        final Map<Cause, Long> portions = counted(30 * MS, 0, 10 * MS, 15 * MS, 0);
        assertEquals(0, portions.get(Cause.MECH));
        assertEquals(10 * MS, portions.get(Cause.SAFEPOINT));
        assertEquals(15 * MS, portions.get(Cause.TTSP));
    }
}
