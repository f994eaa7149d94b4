package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * When the meter hands a stall over, and with which time at safepoints: the counters' moves a
 * busy machine spreads over several wake-ups.
 */
class HeldStallTest {

    private static final int WIDTH = VmCounters.FIRST_COLLECTOR + 1;
    private static final long MS = 1_000_000L;

    private final StallQueue queue = new StallQueue(16, WIDTH);
    private final HeldStall held = new HeldStall(WIDTH);

    /** Counters with the given safepoint count and time at safepoints. */
    private static long[] counters(final long safepoints, final long ticks) {
        final long[] read = new long[WIDTH];
        read[VmCounters.SAFEPOINTS] = safepoints;
        read[VmCounters.SAFEPOINT_TICKS] = ticks;
        return read;
    }

    /** The handed-over stalls' time at safepoints, oldest first. */
    private List<Long> handedTicks() {
        final List<Long> ticks = new ArrayList<>();
        queue.poll((end, length, evidence, at) -> ticks.add(evidence[at + VmCounters.SAFEPOINT_TICKS]));
        return ticks;
    }

    @Test
    void aStallWithoutASafepointGoesAtTheNextWakeUp() {
        held.hold(10 * MS, 5 * MS, counters(3, 100), counters(3, 100));
        held.woke(counters(3, 100), 11 * MS, false, queue);
        assertEquals(List.of(0L), handedTicks());
    }

    @Test
    void aSafepointsTimeAddedAfterTheWakeUpIsItsStalls() {
        held.hold(10 * MS, 90 * MS, counters(3, 100), counters(4, 100));
        held.woke(counters(4, 100), 11 * MS, false, queue);
        held.woke(counters(4, 100), 12 * MS, false, queue);
        assertEquals(List.of(), handedTicks(), "held while HotSpot has not added the safepoint's time");
        held.woke(counters(4, 99_100), 13 * MS, false, queue);
        assertEquals(List.of(99_000L), handedTicks());
    }

    @Test
    void aStallWhoseSafepointTimeCameWithItGoesAtTheNextWakeUp() {
        held.hold(10 * MS, 90 * MS, counters(3, 100), counters(4, 99_100));
        held.woke(counters(4, 99_100), 11 * MS, false, queue);
        assertEquals(List.of(99_000L), handedTicks());
    }

    @Test
    void theNextStallTakesTheHeldOnesPlaceAndCountsFromWhatWasHanded() {
        held.hold(10 * MS, 90 * MS, counters(3, 100), counters(4, 100));
        held.woke(counters(4, 100), 13 * MS, true, queue);
        held.hold(13 * MS, 3 * MS, counters(4, 100), counters(4, 100));
        assertEquals(List.of(0L), handedTicks(), "handed over as it was when the next stall came");
        held.woke(counters(4, 99_100), 14 * MS, false, queue);
        assertEquals(List.of(99_000L), handedTicks(), "the time that came later is the next stall's");
    }

    @Test
    void aNewSafepointOrTheWaitsBoundHandsItOver() {
        held.hold(10 * MS, 90 * MS, counters(3, 100), counters(4, 100));
        held.woke(counters(5, 100), 11 * MS, false, queue);
        assertEquals(List.of(0L), handedTicks(), "another safepoint began: its time is not this stall's");

        held.hold(20 * MS, 90 * MS, counters(5, 100), counters(6, 100));
        held.woke(counters(6, 100), 20 * MS + HeldStall.SAFEPOINT_END_WAIT_NANOS - 1, false, queue);
        assertEquals(List.of(), handedTicks());
        held.woke(counters(6, 100), 20 * MS + HeldStall.SAFEPOINT_END_WAIT_NANOS, false, queue);
        assertEquals(List.of(0L), handedTicks(), "no longer than the bound");
    }

    @Test
    void theStopHandsOverWhatIsHeld() {
        held.hold(10 * MS, 90 * MS, counters(3, 100), counters(4, 100));
        held.handOver(queue);
        held.handOver(queue);
        assertEquals(List.of(0L), handedTicks());
    }
}
