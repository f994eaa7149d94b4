package io.mech.hiccup.cause;

/**
 * The time the host's threads waited for memory outside any safepoint: ZGC's allocation stalls,
 * each of at least a millisecond, as JFR reports them once it records.
 *
 * @param count   stalls
 * @param nanos   their total length, thread by thread: two threads stalled together count twice
 * @param longest the longest
 * @param threads the threads that stalled at least once
 */
public record AllocationStalls(long count, long nanos, long longest, long threads) {

    /** None heard of: JFR not recording, or a collector that has none. */
    public static final AllocationStalls NONE = new AllocationStalls(0, 0, 0, 0);
}
