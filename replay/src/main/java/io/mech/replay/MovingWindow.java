package io.mech.replay;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * A percentile over the intervals that ended within a sliding duration, one row per interval, as
 * HistogramLogProcessor's moving window computes it: an interval leaves the window once its end
 * is at least the window length before the newest interval's end.
 *
 * <p>The window's intervals are copied into pooled histograms, so sliding over a day allocates
 * only as many histograms as the window holds at once.
 */
final class MovingWindow {

    private final long lengthMillis;
    private final double percentile;
    private final ArrayDeque<Histogram> window = new ArrayDeque<>();
    private final ArrayDeque<Histogram> pool = new ArrayDeque<>();
    private Histogram sum;
    private long[] endMillis = new long[256];
    private long[] counts = new long[256];
    private long[] values = new long[256];
    private long[] maxima = new long[256];
    private int size;

    MovingWindow(final long lengthMillis, final double percentile) {
        this.lengthMillis = lengthMillis;
        this.percentile = percentile;
    }

    /** Adds a time bucket of a merged view. */
    void add(final Histogram bucket) {
        final Histogram copy = pooled(() -> {
            final Histogram fresh = new Histogram(bucket);
            fresh.setAutoResize(true);
            return fresh;
        });
        copy.add(bucket);
        add(copy, bucket.getEndTimeStamp());
    }

    /** Adds an interval of a single log. */
    void add(final IntervalCounts interval) {
        final Histogram copy = pooled(interval::emptyOfShape);
        interval.addTo(copy);
        add(copy, interval.endMillis());
    }

    private Histogram pooled(final Supplier<Histogram> fresh) {
        final Histogram copy = pool.poll();
        if (copy == null) {
            return fresh.get();
        }
        copy.reset();
        return copy;
    }

    private void add(final Histogram copy, final long end) {
        if (sum == null) {
            sum = new Histogram(copy);
            sum.setAutoResize(true);
        }
        copy.setEndTimeStamp(end);
        sum.add(copy);
        final long cutOff = end - lengthMillis;
        while (!window.isEmpty() && window.peek().getEndTimeStamp() <= cutOff) {
            final Histogram gone = window.poll();
            sum.subtract(gone);
            pool.add(gone);
        }
        window.add(copy);
        if (size == endMillis.length) {
            endMillis = Arrays.copyOf(endMillis, size * 2);
            counts = Arrays.copyOf(counts, size * 2);
            values = Arrays.copyOf(values, size * 2);
            maxima = Arrays.copyOf(maxima, size * 2);
        }
        endMillis[size] = end;
        counts[size] = sum.getTotalCount();
        values[size] = sum.getValueAtPercentile(percentile);
        maxima[size] = sum.getMaxValue();
        size++;
    }

    double percentile() {
        return percentile;
    }

    long lengthMillis() {
        return lengthMillis;
    }

    int size() {
        return size;
    }

    long endMillis(final int i) {
        return endMillis[i];
    }

    long count(final int i) {
        return counts[i];
    }

    long value(final int i) {
        return values[i];
    }

    long max(final int i) {
        return maxima[i];
    }
}
