package io.mech.hiccup;

/**
 * The stall the meter has seen and not yet handed over, held until HotSpot's counters carry its
 * evidence.
 *
 * <p>HotSpot counts a safepoint and its wait as it begins, and adds its time at the safepoint
 * only after it has let the threads go, so the meter may wake before that time is added. A stall
 * is therefore handed over at a later wake-up, and takes the time at safepoints added in the
 * meantime while no further safepoint began; the stall after it counts that time from there, so
 * no time is handed over twice.
 *
 * <p>Most stalls are handed over at the next wake-up. One that saw a safepoint begin and none of
 * its time added is held on, round by round: HotSpot's VM thread can lose its core between letting
 * the threads go and adding the time, on a busy machine for longer than a round, and a stall
 * handed over without that time is put down to the OS (a 99 ms heap inspection, beside two busy
 * threads). It goes when the time comes, another stall or safepoint comes, or
 * {@link #SAFEPOINT_END_WAIT_NANOS} has passed.
 *
 * <p>Thread contract: the meter thread alone calls every method; nothing is shared.
 */
final class HeldStall {

    /**
     * How long a stall may wait for its safepoint's time: longer than a starved VM thread waits
     * for a core, and short beside the ten seconds the causes wait for JFR's events.
     */
    static final long SAFEPOINT_END_WAIT_NANOS = 200_000_000L;

    private final long[] before;
    private final long[] end;
    /** The time at safepoints already handed over with a stall, which the next one counts from. */
    private long safepointTicksHanded;
    private long endNanos;
    private long lengthNanos;
    private boolean held;

    /** @param width a stall's evidence: the counters' width and the kernel's, {@link HiccupMeter#evidenceWidth} */
    HeldStall(final int width) {
        this.before = new long[width];
        this.end = new long[width];
    }

    /**
     * Holds a stall that ended at {@code endNanos}: the counters read at the wake-up before it and
     * at its end. The one held before must have been handed over.
     */
    void hold(final long endNanos, final long lengthNanos, final long[] last, final long[] current) {
        System.arraycopy(last, 0, before, 0, last.length);
        before[VmCounters.SAFEPOINT_TICKS] = Math.max(last[VmCounters.SAFEPOINT_TICKS], safepointTicksHanded);
        System.arraycopy(current, 0, end, 0, current.length);
        this.endNanos = endNanos;
        this.lengthNanos = lengthNanos;
        this.held = true;
    }

    /**
     * Takes a wake-up's counters and hands the held stall over unless it still waits for its
     * safepoint's time.
     *
     * @param current the counters at this wake-up
     * @param now     this wake-up's time
     * @param stall   whether this round is a stall too, which must then be held in its place
     */
    void woke(final long[] current, final long now, final boolean stall, final StallQueue queue) {
        if (!held) {
            return;
        }
        final boolean noneBegan = current[VmCounters.SAFEPOINTS] == end[VmCounters.SAFEPOINTS];
        if (noneBegan) {
            end[VmCounters.SAFEPOINT_TICKS] = current[VmCounters.SAFEPOINT_TICKS];
        }
        if (!noneBegan || stall || !awaitsSafepointEnd() || now - endNanos >= SAFEPOINT_END_WAIT_NANOS) {
            handOver(queue);
        }
    }

    /** Hands the held stall over as it is, if there is one: at the meter's stop. */
    void handOver(final StallQueue queue) {
        if (held) {
            safepointTicksHanded = end[VmCounters.SAFEPOINT_TICKS];
            queue.offer(endNanos, lengthNanos, end, 0, before, 0);
            held = false;
        }
    }

    private boolean awaitsSafepointEnd() {
        return end[VmCounters.SAFEPOINTS] != before[VmCounters.SAFEPOINTS]
            && end[VmCounters.SAFEPOINT_TICKS] == before[VmCounters.SAFEPOINT_TICKS];
    }
}
