package io.mech.replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Replays one or more interval logs into views: the merged one (or the only log's) and, where
 * kept, one per log.
 *
 * <p>The logs are read side by side, always taking the line that starts first (a k-way merge on a
 * heap), so that a fleet is merged in absolute time in one pass with one line per log in memory.
 * Memory does not grow with the number of logs beyond each log's reading buffer: up to
 * {@link #OVERLAID_LOGS} logs keep a view each (listed and drawn one by one); more are a fleet,
 * whose hosts keep a packed distribution each only with {@code --per-file}. Nothing grows with a
 * log's length unless an output asks for every interval: a log's own timeline is kept only for the
 * charts (up to {@link #OVERLAID_LOGS} logs) and for {@code --openmetrics}, the merged one only for
 * the charts and {@code --intervals}, and the causes' time buckets only for the charts. The merged
 * timeline groups intervals into buckets as long as the first selected interval, numbered from the
 * earliest log's start: intervals of different hosts that cover the same second meet in one bucket.
 *
 * <p>Selection follows HistogramLogProcessor: untagged lines unless a tag is asked for; a
 * relative window compares each interval's start, relative to the log's start, with the bounds
 * (with several logs, relative to the earliest log's start); a log stops at its first interval
 * past the end. Tagged lines in the window feed the {@link StallCauses} (the causes' lines and
 * the allocation stalls'), every tag's or only the one asked for, and control logs feed only them.
 */
final class Replay {

    /** Up to this many logs are each listed and drawn; more are a fleet, ranked and drawn as a band. */
    static final int OVERLAID_LOGS = 10;

    /**
     * What a replay produced.
     *
     * @param files  one view per log that had intervals, in command-line order, where kept
     * @param merged the merged view, or the only log's view
     * @param moving the moving-window percentile over the merged view, or null
     * @param logs   how many logs had intervals
     * @param causes stall time by cause, and the control logs' hiccups
     * @param seen   what the host logs hold, selected or not
     */
    record Result(List<View> files, View merged, MovingWindow moving, int logs, StallCauses causes, Seen seen) {

        /** Whether there are more logs than are drawn one by one. */
        boolean fleet() {
            return logs > OVERLAID_LOGS;
        }

        /** The rows of every summary table: the merged view, preceded by each log's when there are several and not a fleet. */
        List<View> summaryRows() {
            final List<View> rows = new ArrayList<>();
            if (files.size() > 1 && !fleet()) {
                rows.addAll(files);
            }
            rows.add(merged);
            return rows;
        }
    }

    /**
     * What the host logs' interval lines hold, selected or not, read up to where each log stopped:
     * what an empty selection is told against.
     *
     * @param untagged the untagged lines
     * @param tagged   the tagged lines by tag, sorted
     * @param firstSec the earliest line's start, in seconds after the earliest log's start
     * @param lastSec  the latest line's start, likewise
     */
    record Seen(long untagged, SortedMap<String, Long> tagged, double firstSec, double lastSec) {
    }

    /** Told every few thousand lines, so that it can show how far the replay has got. */
    @FunctionalInterface
    interface Progress {
        void tick();
    }

    private final ReplayOptions options;
    private final List<IntervalLogReader> hosts;
    private final List<IntervalLogReader> controls;
    private final Consumer<String> warnings;
    private final Progress progress;

    /**
     * @param hosts    the logs to merge, in command-line order
     * @param controls control JVMs' logs, whose hiccups are drawn beside the stalls but merged into nothing
     */
    Replay(final ReplayOptions options, final List<IntervalLogReader> hosts, final List<IntervalLogReader> controls,
        final Consumer<String> warnings, final Progress progress) {
        this.options = options;
        this.hosts = hosts;
        this.controls = controls;
        this.warnings = warnings;
        this.progress = progress;
    }

    /**
     * Runs the replay.
     *
     * @throws LogFormatException when a log is damaged (or empty) and replay is not lenient
     * @throws IOException        when a log cannot be read; the message names it
     */
    Result run() throws LogFormatException, IOException {
        final int n = hosts.size();
        final List<IntervalLogReader> readers = new ArrayList<>(hosts);
        readers.addAll(controls);
        final boolean[] live = new boolean[readers.size()];
        int logs = 0;
        double earliestStart = Double.MAX_VALUE;
        for (int i = 0; i < readers.size(); i++) {
            final IntervalLogReader reader = readers.get(i);
            live[i] = advance(reader);
            if (live[i]) {
                if (i < n) {
                    logs++;
                    earliestStart = Math.min(earliestStart, reader.startTimeSec());
                }
                continue;
            }
            final String what = reader.linesRead() == 0 ? "empty log, no interval lines"
                : "no interval lines in the log (" + reader.linesRead() + " lines read)";
            if (!options.lenient && i < n) {
                throw new LogFormatException(reader.name(), Math.max(1, reader.linesRead()), what);
            }
            warnings.accept(reader.name() + ":" + Math.max(1, reader.linesRead()) + ": " + what + " (skipped)");
        }
        if (logs == 0) {
            throw new LogFormatException(hosts.get(0).name(), Math.max(1, hosts.get(0).linesRead()), "no log has interval lines");
        }
        final boolean single = logs == 1;
        final boolean perFile = logs <= OVERLAID_LOGS || options.perFile || options.openMetrics != null;
        // A timeline is a point per interval, 5 MB a day: kept only for what draws, lists or exports it.
        final boolean charts = options.html != null || options.svg != null;
        final boolean timelines = logs <= OVERLAID_LOGS && charts || options.openMetrics != null;
        final boolean mergedTimeline = charts || options.intervals;
        final View[] views = new View[n];
        final List<View> fileViews = new ArrayList<>();
        View only = null;
        for (int i = 0; i < n; i++) {
            if (live[i] && (perFile || single)) {
                views[i] = new View(hosts.get(i).name(), options.stallThreshold, options.worst,
                    timelines || single && mergedTimeline, logs > OVERLAID_LOGS);
                if (options.openMetrics != null) {
                    views[i].keepCauseCounts();
                }
                fileViews.add(views[i]);
                only = views[i];
            }
        }
        final View merged = single ? only : new View("all", options.stallThreshold, options.worst, mergedTimeline, false);
        final MovingWindow moving = options.movingWindowNanos > 0
            ? new MovingWindow(options.movingWindowNanos / 1_000_000L, options.movingPercentile) : null;
        final Bucketing buckets = single ? null : new Bucketing(earliestStart);
        final StallCauses causes = new StallCauses(charts);
        for (int i = n; i < readers.size(); i++) {
            if (live[i]) {
                causes.noteControlLog(readers.get(i).name());
            }
        }
        final MergeOrder order = new MergeOrder(readers.size());
        for (int i = 0; i < readers.size(); i++) {
            if (live[i]) {
                order.add(i, readers.get(i).absoluteStartSec());
            }
        }
        Histogram corrected = null;
        boolean bucketsSet = false;
        long done = 0;
        long untagged = 0;
        final SortedMap<String, Long> tagged = new TreeMap<>();
        double firstSec = Double.MAX_VALUE;
        double lastSec = -Double.MAX_VALUE;
        while (!order.isEmpty()) {
            final int next = order.poll();
            final IntervalLogReader reader = readers.get(next);
            final double offsetSec = reader.absoluteStartSec() - earliestStart;
            if ((++done & 0xfff) == 0) {
                progress.tick();
            }
            if (next < n) {
                if (reader.tag() == null) {
                    untagged++;
                } else {
                    tagged.merge(reader.tag(), 1L, Long::sum);
                }
                firstSec = Math.min(firstSec, offsetSec);
                lastSec = Math.max(lastSec, offsetSec);
            }
            final Selection selection = select(reader, offsetSec);
            if (selection == Selection.PAST_END) {
                continue;
            }
            final boolean control = next >= n;
            final String tag = reader.tag();
            IntervalCounts interval = null;
            if (selection != Selection.OUTSIDE) {
                if (!bucketsSet) {
                    causes.buckets(earliestStart, reader.lengthSec(), single);
                    bucketsSet = true;
                }
                if (control) {
                    interval = tag == null ? reader.interval() : null;
                    if (interval != null) {
                        causes.addControl(reader.absoluteStartSec(), interval.max(), options.stallThreshold);
                    }
                } else if (tag != null && options.tag != null && !options.tag.equals(tag)) {
                    // --tag filters the causes too: another tag's lines count nowhere
                    interval = null;
                } else if (StallCauses.ALLOCATION_STALL.equals(tag)) {
                    // Every stall counts here, so a line with any is decoded whole; an empty one need not be.
                    final boolean stalled = reader.maxColumn() > 0;
                    interval = selection == Selection.TAKE || stalled ? reader.interval() : null;
                    causes.addAllocationStalls(stalled ? interval : null);
                } else if (tag != null && StallCauses.isCause(tag)) {
                    // Decoded only when it holds a stall or is asked for: most cause lines are empty.
                    final boolean stalled = reader.maxColumn() > 0;
                    interval = selection == Selection.TAKE || stalled ? reader.interval() : null;
                    causes.add(tag, reader.absoluteStartSec(), stalled && interval != null ? interval.max() : 0);
                    final CauseCounts counts = views[next] == null ? null : views[next].causeCounts();
                    if (counts != null) {
                        if (stalled && interval != null) {
                            counts.add(causes.tagIndex(tag), interval.endMillis(), interval.max());
                        } else {
                            counts.seen(causes.tagIndex(tag));
                        }
                    }
                } else if (selection == Selection.TAKE) {
                    interval = reader.interval();
                }
            }
            if (selection == Selection.TAKE && !control) {
                if (interval != null) {
                    if (options.correctionInterval > 0) {
                        final Histogram decoded = interval.toHistogram();
                        if (corrected == null || !sameShape(corrected, decoded)) {
                            corrected = new Histogram(decoded);
                        }
                        corrected.reset();
                        corrected.addWhileCorrectingForCoordinatedOmission(decoded, options.correctionInterval);
                        interval.copyFrom(corrected);
                    }
                    final View view = views[next];
                    if (view != null) {
                        view.addInterval(reader.name(), interval);
                        view.addPoint(interval);
                    }
                    if (single) {
                        if (moving != null) {
                            moving.add(interval);
                        }
                    } else {
                        merged.addInterval(reader.name(), interval);
                        buckets.add(reader.absoluteStartSec(), reader.lengthSec(), interval, merged, moving);
                    }
                }
            }
            if (advance(reader)) {
                order.add(next, reader.absoluteStartSec());
            }
        }
        if (buckets != null) {
            buckets.flush(merged, moving);
        }
        for (int i = 0; i < n; i++) {
            final IntervalLogReader reader = hosts.get(i);
            if (views[i] != null) {
                views[i].noteInput(reader.skipped(), reader.truncated());
            }
            if (!single) {
                merged.noteInput(reader.skipped(), reader.truncated());
            }
        }
        return new Result(fileViews, merged, moving, logs, causes, new Seen(untagged, tagged, firstSec, lastSec));
    }

    /** TAKE: in the window and of the tag asked for; OUTSIDE: before the window; PAST_END: stop the log. */
    private enum Selection { TAKE, OTHER_TAG, OUTSIDE, PAST_END }

    private Selection select(final IntervalLogReader reader, final double offsetSec) {
        // In HistogramLogProcessor's order: the window applies to every line, tagged or not.
        final ReplayOptions.TimeBound start = options.start;
        final ReplayOptions.TimeBound end = options.end;
        if ((start.absolute() ? reader.absoluteStartSec() : offsetSec) < start.seconds()) {
            return Selection.OUTSIDE;
        }
        if ((end.absolute() ? reader.absoluteStartSec() : offsetSec) > end.seconds()) {
            return Selection.PAST_END;
        }
        final String tag = reader.tag();
        if (!options.allTags && (options.tag == null ? tag != null : !options.tag.equals(tag))) {
            return Selection.OTHER_TAG;
        }
        return Selection.TAKE;
    }

    private static boolean sameShape(final Histogram a, final Histogram b) {
        return a.getNumberOfSignificantValueDigits() == b.getNumberOfSignificantValueDigits()
            && a.getLowestDiscernibleValue() == b.getLowestDiscernibleValue()
            && a.getHighestTrackableValue() == b.getHighestTrackableValue();
    }

    private boolean advance(final IntervalLogReader reader) throws LogFormatException, IOException {
        try {
            return reader.next();
        } catch (final IOException e) {
            throw new IOException(reader.name() + ":" + (reader.linesRead() + 1) + ": cannot be read (" + e.getMessage() + ")", e);
        }
    }

    /** Groups the intervals of several logs into time buckets for the merged timeline. */
    private static final class Bucketing {
        private final double originSec;
        private double widthSec;
        private long key = Long.MIN_VALUE;
        private Histogram bucket;

        Bucketing(final double originSec) {
            this.originSec = originSec;
        }

        void add(final double startSec, final double lengthSec, final IntervalCounts interval, final View merged,
            final MovingWindow moving) {
            if (bucket == null) {
                widthSec = Math.max(0.001, Math.round(lengthSec * 1000.0) / 1000.0);
                bucket = interval.emptyOfShape();
            }
            final long at = Math.round((startSec - originSec) / widthSec);
            if (at != key) {
                flush(merged, moving);
                key = at;
            }
            interval.addTo(bucket);
        }

        void flush(final View merged, final MovingWindow moving) {
            if (bucket == null || key == Long.MIN_VALUE) {
                return;
            }
            final long start = (long) ((originSec + key * widthSec) * 1000.0);
            final long end = (long) ((originSec + (key + 1) * widthSec) * 1000.0);
            bucket.setStartTimeStamp(start);
            bucket.setEndTimeStamp(end);
            merged.addPoint(start, end, bucket);
            if (moving != null) {
                moving.add(bucket);
            }
            bucket.reset();
        }
    }
}
