package io.mech.hiccup;

import org.HdrHistogram.Histogram;

/**
 * An immutable view of the hiccups recorded so far: the distribution since recording began,
 * the longest hiccup of the last closed interval, and the stalls. Values are in nanoseconds.
 */
public final class HiccupSnapshot {

    private final Histogram total;
    private final long intervals;
    private final long startMillis;
    private final long lastIntervalMaxNanos;
    private final long stalls;
    private final long stallNanos;

    HiccupSnapshot(final Histogram total, final long intervals, final long startMillis, final long lastIntervalMaxNanos,
                   final long stalls, final long stallNanos) {
        this.total = total.copy();
        this.intervals = intervals;
        this.startMillis = startMillis;
        this.lastIntervalMaxNanos = lastIntervalMaxNanos;
        this.stalls = stalls;
        this.stallNanos = stallNanos;
    }

    /** The value below which the given percentage of samples fall, in nanoseconds. */
    public long percentileNanos(final double percentile) {
        return total.getValueAtPercentile(percentile);
    }

    /** The longest hiccup, in nanoseconds (within the histogram's precision). */
    public long maxNanos() {
        return total.getMaxValue();
    }

    /** The number of samples, counting those added for coordinated omission. */
    public long count() {
        return total.getTotalCount();
    }

    /** The number of intervals closed (written to the log, if there is one). */
    public long intervals() {
        return intervals;
    }

    /** When recording began, in milliseconds since the epoch; 0 before the first interval. */
    public long startMillis() {
        return startMillis;
    }

    /** The longest hiccup of the last closed interval, in nanoseconds. */
    public long lastIntervalMaxNanos() {
        return lastIntervalMaxNanos;
    }

    /** The number of hiccups at least as long as the stall threshold; -1 where not measured (a control log). */
    public long stalls() {
        return stalls;
    }

    /** The total length of those stalls, without coordinated-omission correction; -1 where not measured. */
    public long stallNanos() {
        return stallNanos;
    }

    /** A copy of the distribution, for consumers that need the buckets themselves. */
    public Histogram histogram() {
        return total.copy();
    }
}
