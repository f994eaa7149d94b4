package io.mech.hiccup;

import org.HdrHistogram.Histogram;

/**
 * An immutable view of the hiccups recorded so far: the distribution since recording began,
 * the longest hiccup of the last closed interval, and the stalls. Values are in nanoseconds.
 *
 * <p>The distribution is copied once, when the snapshot of an interval is made, and then shared
 * by every snapshot of that interval: {@link #histogram()} hands out that one copy, which no one
 * may modify. A scrape thus costs no copy of a histogram, and a reader can tell by identity
 * whether the distribution changed since it last looked.
 */
public final class HiccupSnapshot {

    /**
     * The distribution of every snapshot of nothing yet, shared: a copy of an empty histogram of
     * mech's range is 304 KiB of new heap, and the report's rehearsal at start takes one.
     */
    private static final Histogram NOTHING = new Histogram(HiccupRecorder.SIGNIFICANT_DIGITS);

    private final Histogram total;
    private final long intervals;
    private final long startMillis;
    private final long lastIntervalMaxNanos;
    private final long stalls;
    private final long stallNanos;

    /** A snapshot of its own copy of the distribution. */
    HiccupSnapshot(final Histogram total, final long intervals, final long startMillis, final long lastIntervalMaxNanos,
                   final long stalls, final long stallNanos) {
        this.total = total.getTotalCount() == 0 ? NOTHING : total.copy();
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

    /** The same distribution with later stall totals: the meter counts stalls between intervals. */
    HiccupSnapshot withStalls(final long stallsNow, final long stallNanosNow) {
        return new HiccupSnapshot(this, stallsNow, stallNanosNow);
    }

    private HiccupSnapshot(final HiccupSnapshot interval, final long stalls, final long stallNanos) {
        this.total = interval.total;
        this.intervals = interval.intervals;
        this.startMillis = interval.startMillis;
        this.lastIntervalMaxNanos = interval.lastIntervalMaxNanos;
        this.stalls = stalls;
        this.stallNanos = stallNanos;
    }

    /**
     * The distribution itself, for consumers that need the buckets: shared by every snapshot of
     * the same interval and never modified after the snapshot was made. Read it; never write it;
     * and hold its monitor around any method that walks the histogram's own iterator
     * ({@code getMean}, {@code getStdDeviation}), which concurrent readers would share.
     */
    public Histogram histogram() {
        return total;
    }
}
