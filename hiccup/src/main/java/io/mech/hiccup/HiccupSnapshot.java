package io.mech.hiccup;

import java.io.FileNotFoundException;
import java.nio.file.Path;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * An immutable view of the hiccups recorded so far: the distribution since recording began and
 * the number of intervals closed. Values are in nanoseconds.
 */
public final class HiccupSnapshot {

    private final Histogram total;
    private final long intervals;
    private final long startMillis;

    private HiccupSnapshot(final Histogram total, final long intervals, final long startMillis) {
        this.total = total;
        this.intervals = intervals;
        this.startMillis = startMillis;
    }

    static HiccupSnapshot of(final Histogram total, final long intervals, final long startMillis) {
        return new HiccupSnapshot(total.copy(), intervals, startMillis);
    }

    /**
     * Adds up every untagged interval of an interval log, for instance the control JVM's.
     *
     * @param log a log in HdrHistogram's interval log format
     * @return the distribution of the whole log
     * @throws FileNotFoundException when the log does not exist
     */
    public static HiccupSnapshot readLog(final Path log) throws FileNotFoundException {
        final HistogramLogReader reader = new HistogramLogReader(log.toFile());
        final Histogram total = new Histogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS);
        long intervals = 0;
        long start = Long.MAX_VALUE;
        EncodableHistogram interval;
        while ((interval = reader.nextIntervalHistogram()) != null) {
            if (interval.getTag() == null && interval instanceof Histogram) {
                total.add((Histogram) interval);
                start = Math.min(start, interval.getStartTimeStamp());
                intervals++;
            }
        }
        return new HiccupSnapshot(total, intervals, intervals == 0 ? 0 : start);
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

    /** When recording began, in milliseconds since the epoch. */
    public long startMillis() {
        return startMillis;
    }

    /** A copy of the distribution, for consumers that need the buckets themselves. */
    public Histogram histogram() {
        return total.copy();
    }
}
