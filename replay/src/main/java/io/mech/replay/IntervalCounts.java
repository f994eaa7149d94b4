package io.mech.replay;

import java.util.Arrays;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One interval's histogram as its nonzero counts, in value order, with the shape it was encoded in.
 *
 * <p>Why not a {@link Histogram}: resetting, adding and walking one costs time in proportion to
 * its counts array, 38,912 entries for mech's three significant digits, where an interval of
 * hiccups fills about a hundred. Replaying a thousand day-logs is 86 million intervals, so every
 * operation here takes time in proportion to the nonzero counts, and gives what the same
 * operation on the decoded {@link Histogram} gives (tests compare the two).
 *
 * <p>Not thread-safe; reused from interval to interval by its decoder.
 */
final class IntervalCounts {

    private Histogram shape;
    private long[] values = new long[256];
    private long[] counts = new long[256];
    private int size;
    private long total;
    private long startMillis;
    private long endMillis;

    /** Empties it, for an interval of the shape given (a histogram whose counts are not used). */
    void reset(final Histogram shapeOf) {
        shape = shapeOf;
        size = 0;
        total = 0;
    }

    /** Appends a count; values must come in increasing order, each the lowest of its bucket. */
    void append(final long value, final long count) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
            counts = Arrays.copyOf(counts, size * 2);
        }
        values[size] = value;
        counts[size] = count;
        size++;
        total += count;
    }

    /** Replaces the counts with those of {@code h}, which must be of the current shape. */
    void copyFrom(final Histogram h) {
        size = 0;
        total = 0;
        for (final HistogramIterationValue v : h.recordedValues()) {
            append(h.lowestEquivalentValue(v.getValueIteratedTo()), v.getCountAtValueIteratedTo());
        }
    }

    void setTimes(final long start, final long end) {
        startMillis = start;
        endMillis = end;
    }

    long startMillis() {
        return startMillis;
    }

    long endMillis() {
        return endMillis;
    }

    long totalCount() {
        return total;
    }

    /**
     * The sum of the values counted, each as its bucket's median: {@link Histogram#getMean()}
     * times the count, within the histogram's precision.
     */
    long sum() {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            sum += shape.medianEquivalentValue(values[i]) * counts[i];
        }
        return sum;
    }

    /** As {@link Histogram#getMaxValue()}. */
    long max() {
        return size == 0 ? 0 : shape.highestEquivalentValue(values[size - 1]);
    }

    /** As {@link Histogram#getValueAtPercentile(double)}, step for step. */
    long valueAtPercentile(final double percentile) {
        final long countAtPercentile = countAtPercentile(percentile, total);
        long running = 0;
        for (int i = 0; i < size; i++) {
            running += counts[i];
            if (running >= countAtPercentile) {
                return percentile == 0.0 ? values[i] : shape.highestEquivalentValue(values[i]);
            }
        }
        return 0;
    }

    /** The count a percentile reaches, rounded as HdrHistogram's {@code getValueAtPercentile} rounds it. */
    static long countAtPercentile(final double percentile, final long total) {
        final double requested = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0), 100.0);
        return Math.max((long) Math.ceil(requested * total / 100.0), 1);
    }

    /** Adds the counts to {@code target} as {@code target.add(this as a Histogram)} would, whatever its shape. */
    void addTo(final Histogram target) {
        for (int i = 0; i < size; i++) {
            target.recordValueWithCount(values[i], counts[i]);
        }
    }

    /** An empty, auto-resizing histogram of this interval's shape, for sums of intervals. */
    Histogram emptyOfShape() {
        final Histogram h = new Histogram(shape);
        h.setAutoResize(true);
        return h;
    }

    /** A new histogram of this interval's shape holding its counts and times. */
    Histogram toHistogram() {
        final Histogram h = emptyOfShape();
        addTo(h);
        h.setStartTimeStamp(startMillis);
        h.setEndTimeStamp(endMillis);
        return h;
    }
}
