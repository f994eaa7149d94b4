package io.mech.replay;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * What replay reports for one log, or for several merged: the accumulated distribution, the
 * timeline, the stalls and the worst intervals.
 *
 * <p>The distribution accumulates into a histogram shaped like the first interval added, as
 * HistogramLogProcessor's does, so that both print the same percentile rows. A host of a fleet
 * keeps it packed (HdrHistogram's {@link PackedHistogram}, same figures, memory in proportion to
 * the buckets used: 18 KB for a day of a mech log measured here, against 311 KB for the full
 * three-digit histogram), and keeps no timeline unless asked: a thousand hosts cost about 18 MB.
 */
final class View {

    private final String name;
    private final long stallThreshold;
    private final Timeline timeline;
    private final boolean packed;
    private final WorstIntervals worst;
    private Histogram total;
    private long intervals;
    private long stalledIntervals;
    private long stalledSum;
    private long skippedLines;
    private boolean truncated;
    /** The log's stalls by cause, kept only for the OpenMetrics export; null otherwise. */
    private CauseCounts causeCounts;

    /**
     * @param name           how the report names it
     * @param stallThreshold intervals whose max reaches this (in the log's value unit) count as stalled
     * @param worst          how many of the worst intervals to keep
     * @param timeline       whether to keep a point per interval (for charts and exports)
     * @param packed         whether to keep the distribution packed, for one host of many
     */
    View(final String name, final long stallThreshold, final int worst, final boolean timeline, final boolean packed) {
        this.name = name;
        this.stallThreshold = stallThreshold;
        this.worst = new WorstIntervals(worst);
        this.timeline = timeline ? new Timeline() : null;
        this.packed = packed;
    }

    /** Adds one interval of a log to the distribution, the stall figures and the worst intervals. */
    void addInterval(final String source, final IntervalCounts interval) {
        if (total == null) {
            total = packed ? new PackedHistogram(interval.emptyOfShape()) : interval.emptyOfShape();
            total.setAutoResize(true);
        }
        interval.addTo(total);
        intervals++;
        final long max = interval.max();
        if (max >= stallThreshold) {
            stalledIntervals++;
            stalledSum += max;
        }
        if (worst.wouldKeep(max)) {
            worst.offer(new WorstIntervals.Entry(source, interval.startMillis(), interval.endMillis(), max,
                interval.valueAtPercentile(99.0)));
        }
    }

    /** Adds a time bucket of a merged view to the timeline. */
    void addPoint(final long startMillis, final long endMillis, final Histogram bucket) {
        if (timeline != null) {
            timeline.add(startMillis, endMillis, bucket);
        }
    }

    /** Adds an interval to the timeline. */
    void addPoint(final IntervalCounts interval) {
        if (timeline != null) {
            timeline.add(interval.startMillis(), interval.endMillis(), interval);
        }
    }

    /** Keeps the log's stalls by cause from now on, for the OpenMetrics export. */
    void keepCauseCounts() {
        causeCounts = new CauseCounts();
    }

    /** @return the log's stalls by cause, or null when they are not kept */
    CauseCounts causeCounts() {
        return causeCounts;
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

    /** The timeline, empty when the view keeps none. */
    Timeline timeline() {
        return timeline == null ? Timeline.EMPTY : timeline;
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
