package io.mech.replay;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Replays one or more interval logs into views: one per log and, with several logs, a merged one.
 *
 * <p>The logs are read side by side, always taking the interval that starts first, so that a fleet
 * is merged in absolute time in one pass with one interval per log in memory. The merged
 * timeline groups intervals into buckets as long as the first selected interval, numbered from
 * the earliest log's start: intervals of different hosts that cover the same second meet in
 * one bucket.
 *
 * <p>Selection follows HistogramLogProcessor: untagged lines unless a tag is asked for; a
 * relative window compares each interval's start, relative to the log's start, with the bounds
 * (with several logs, relative to the earliest log's start); a log stops at its first interval
 * past the end.
 */
final class Replay {

    /**
     * What a replay produced.
     *
     * @param files  one view per log that had intervals, in command-line order
     * @param merged the merged view, or the only log's view
     * @param moving the moving-window percentile over the merged view, or null
     */
    record Result(List<View> files, View merged, MovingWindow moving) {
    }

    /** Told how far the replay has got, every few thousand intervals. */
    @FunctionalInterface
    interface Progress {
        void at(long bytesRead);
    }

    private final ReplayOptions options;
    private final List<IntervalLogReader> readers;
    private final Consumer<String> warnings;
    private final Progress progress;

    Replay(final ReplayOptions options, final List<IntervalLogReader> readers, final Consumer<String> warnings,
        final Progress progress) {
        this.options = options;
        this.readers = readers;
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
        final int n = readers.size();
        final boolean[] live = new boolean[n];
        final List<View> fileViews = new ArrayList<>(n);
        final View[] views = new View[n];
        double earliestStart = Double.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            final IntervalLogReader reader = readers.get(i);
            live[i] = advance(reader);
            if (!live[i]) {
                final String what = reader.linesRead() == 0 ? "empty log, no interval lines"
                    : "no interval lines in the log (" + reader.linesRead() + " lines read)";
                if (!options.lenient) {
                    throw new LogFormatException(reader.name(), Math.max(1, reader.linesRead()), what);
                }
                warnings.accept(reader.name() + ":" + Math.max(1, reader.linesRead()) + ": " + what + " (skipped)");
                continue;
            }
            views[i] = new View(reader.name(), options.stallThreshold, options.worst);
            fileViews.add(views[i]);
            earliestStart = Math.min(earliestStart, reader.startTimeSec());
        }
        if (fileViews.isEmpty()) {
            throw new LogFormatException(readers.get(0).name(), Math.max(1, readers.get(0).linesRead()),
                "no log has interval lines");
        }
        final boolean single = n == 1;
        final View merged = single ? views[0] : new View("all", options.stallThreshold, options.worst);
        final MovingWindow moving = options.movingWindowNanos > 0
            ? new MovingWindow(options.movingWindowNanos / 1_000_000L, options.movingPercentile) : null;
        final Bucketing buckets = single ? null : new Bucketing(earliestStart);
        Histogram corrected = null;
        long done = 0;
        while (true) {
            int next = -1;
            for (int i = 0; i < n; i++) {
                if (live[i] && (next < 0 || readers.get(i).absoluteStartSec() < readers.get(next).absoluteStartSec())) {
                    next = i;
                }
            }
            if (next < 0) {
                break;
            }
            final IntervalLogReader reader = readers.get(next);
            final Selection selection = select(reader, single ? reader.offsetSec() : reader.absoluteStartSec() - earliestStart);
            if (selection == Selection.PAST_END) {
                live[next] = false;
                continue;
            }
            if (selection == Selection.TAKE) {
                Histogram interval = reader.histogram();
                if (interval != null) {
                    if (options.correctionInterval > 0) {
                        if (corrected == null || !sameShape(corrected, interval)) {
                            corrected = new Histogram(interval);
                        }
                        corrected.reset();
                        corrected.addWhileCorrectingForCoordinatedOmission(interval, options.correctionInterval);
                        corrected.setStartTimeStamp(interval.getStartTimeStamp());
                        corrected.setEndTimeStamp(interval.getEndTimeStamp());
                        interval = corrected;
                    }
                    final View view = views[next];
                    view.addInterval(reader.name(), interval);
                    view.addPoint(interval.getStartTimeStamp(), interval.getEndTimeStamp(), interval);
                    if (single) {
                        if (moving != null) {
                            moving.add(interval);
                        }
                    } else {
                        merged.addInterval(reader.name(), interval);
                        buckets.add(reader.absoluteStartSec(), reader.lengthSec(), interval, merged, moving);
                    }
                    if ((++done & 0xfff) == 0) {
                        progress.at(bytesRead());
                    }
                }
            }
            live[next] = advance(reader);
        }
        if (buckets != null) {
            buckets.flush(merged, moving);
        }
        for (int i = 0; i < n; i++) {
            if (views[i] != null) {
                views[i].noteInput(readers.get(i).skipped(), readers.get(i).truncated());
                if (!single) {
                    merged.noteInput(readers.get(i).skipped(), readers.get(i).truncated());
                }
            }
        }
        return new Result(fileViews, merged, moving);
    }

    private enum Selection { TAKE, SKIP, PAST_END }

    private Selection select(final IntervalLogReader reader, final double offsetSec) {
        // In HistogramLogProcessor's order: the window applies to every line, tagged or not.
        final ReplayOptions.TimeBound start = options.start;
        final ReplayOptions.TimeBound end = options.end;
        if ((start.absolute() ? reader.absoluteStartSec() : offsetSec) < start.seconds()) {
            return Selection.SKIP;
        }
        if ((end.absolute() ? reader.absoluteStartSec() : offsetSec) > end.seconds()) {
            return Selection.PAST_END;
        }
        final String tag = reader.tag();
        if (!options.allTags && (options.tag == null ? tag != null : !options.tag.equals(tag))) {
            return Selection.SKIP;
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

    private long bytesRead() {
        long total = 0;
        for (final IntervalLogReader reader : readers) {
            total += reader.bytesRead();
        }
        return total;
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

        void add(final double startSec, final double lengthSec, final Histogram interval, final View merged,
            final MovingWindow moving) {
            if (bucket == null) {
                widthSec = Math.max(0.001, Math.round(lengthSec * 1000.0) / 1000.0);
                bucket = new Histogram(interval);
                bucket.setAutoResize(true);
            }
            final long at = Math.round((startSec - originSec) / widthSec);
            if (at != key) {
                flush(merged, moving);
                key = at;
            }
            bucket.add(interval);
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
