package io.mech.replay;

import org.HdrHistogram.Histogram;

/**
 * What replay reports for one log, or for several merged: the accumulated distribution, the
 * timeline, the stalls and the worst intervals.
 *
 * <p>The distribution accumulates into a histogram shaped like the first interval added, as
 * HistogramLogProcessor's does, so that both print the same percentile rows.
 */
final class View {

    private final String name;
    private final long stallThreshold;
    private final Timeline timeline = new Timeline();
    private final WorstIntervals worst;
    private Histogram total;
    private long intervals;
    private long stalledIntervals;
    private long stalledSum;
    private long skippedLines;
    private boolean truncated;

    /**
     * @param name           how the report names it
     * @param stallThreshold intervals whose max reaches this (in the log's value unit) count as stalled
     * @param worst          how many of the worst intervals to keep
     */
    View(final String name, final long stallThreshold, final int worst) {
        this.name = name;
        this.stallThreshold = stallThreshold;
        this.worst = new WorstIntervals(worst);
    }

    /** Adds one interval of a log to the distribution, the stall figures and the worst intervals. */
    void addInterval(final String source, final Histogram interval) {
        if (total == null) {
            total = new Histogram(interval);
            total.setAutoResize(true);
        }
        total.add(interval);
        intervals++;
        final long max = interval.getMaxValue();
        if (max >= stallThreshold) {
            stalledIntervals++;
            stalledSum += max;
        }
        if (worst.wouldKeep(max)) {
            worst.offer(new WorstIntervals.Entry(source, interval.getStartTimeStamp(), interval.getEndTimeStamp(), max,
                interval.getValueAtPercentile(99.0)));
        }
    }

    /** Adds a point to the timeline. */
    void addPoint(final long startMillis, final long endMillis, final Histogram histogram) {
        timeline.add(startMillis, endMillis, histogram);
    }

    void noteInput(final long skipped, final boolean truncatedLastLine) {
        skippedLines += skipped;
        truncated |= truncatedLastLine;
    }

    String name() {
        return name;
    }

    /** The accumulated distribution; empty (and shaped like jHiccup's) when no interval was selected. */
    Histogram total() {
        return total == null ? new Histogram(3) : total;
    }

    long intervals() {
        return intervals;
    }

    Timeline timeline() {
        return timeline;
    }

    WorstIntervals worst() {
        return worst;
    }

    long stallThreshold() {
        return stallThreshold;
    }

    /** Intervals whose longest hiccup reached the stall threshold. */
    long stalledIntervals() {
        return stalledIntervals;
    }

    /**
     * The sum of those intervals' longest hiccups: a lower bound on the time stalled, because an
     * interval's other stalls are hidden behind its max, and the values recorded after a stall
     * (coordinated-omission correction) are not separate stalls.
     */
    long stalledLowerBound() {
        return stalledSum;
    }

    long skippedLines() {
        return skippedLines;
    }

    boolean truncated() {
        return truncated;
    }
}
