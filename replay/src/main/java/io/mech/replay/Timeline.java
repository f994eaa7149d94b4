package io.mech.replay;

import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * One point per interval (or per time bucket of a merged view): when, how many samples, and the
 * 50th, 90th, 99th percentile and max, kept in primitive arrays so that a day of one-second
 * intervals costs a few megabytes.
 */
final class Timeline {

    /** The timeline of a view that keeps none. */
    static final Timeline EMPTY = new Timeline();

    private long[] startMillis = new long[256];
    private long[] endMillis = new long[256];
    private long[] counts = new long[256];
    private long[] p50 = new long[256];
    private long[] p90 = new long[256];
    private long[] p99 = new long[256];
    private long[] max = new long[256];
    private int size;

    void add(final long start, final long end, final Histogram histogram) {
        add(start, end, histogram.getTotalCount(), histogram.getValueAtPercentile(50.0), histogram.getValueAtPercentile(90.0),
            histogram.getValueAtPercentile(99.0), histogram.getMaxValue());
    }

    void add(final long start, final long end, final IntervalCounts interval) {
        add(start, end, interval.totalCount(), interval.valueAtPercentile(50.0), interval.valueAtPercentile(90.0),
            interval.valueAtPercentile(99.0), interval.max());
    }

    private void add(final long start, final long end, final long count, final long p50Value, final long p90Value,
        final long p99Value, final long maxValue) {
        if (size == startMillis.length) {
            final int capacity = size * 2;
            startMillis = Arrays.copyOf(startMillis, capacity);
            endMillis = Arrays.copyOf(endMillis, capacity);
            counts = Arrays.copyOf(counts, capacity);
            p50 = Arrays.copyOf(p50, capacity);
            p90 = Arrays.copyOf(p90, capacity);
            p99 = Arrays.copyOf(p99, capacity);
            max = Arrays.copyOf(max, capacity);
        }
        startMillis[size] = start;
        endMillis[size] = end;
        counts[size] = count;
        p50[size] = p50Value;
        p90[size] = p90Value;
        p99[size] = p99Value;
        max[size] = maxValue;
        size++;
    }

    int size() {
        return size;
    }

    long startMillis(final int i) {
        return startMillis[i];
    }

    long endMillis(final int i) {
        return endMillis[i];
    }

    long count(final int i) {
        return counts[i];
    }

    long p50(final int i) {
        return p50[i];
    }

    long p90(final int i) {
        return p90[i];
    }

    long p99(final int i) {
        return p99[i];
    }

    long max(final int i) {
        return max[i];
    }
}
