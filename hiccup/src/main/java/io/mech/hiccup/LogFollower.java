package io.mech.hiccup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.Arrays;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/**
 * Follows an interval log that another process is still writing, such as the control JVM's,
 * and keeps the running total of its untagged intervals. Each {@link #snapshot()} reads only the
 * whole lines added since the last one, so following a day-long log stays cheap, and hands out
 * the same snapshot until an interval is added: a scrape every few seconds of a log that grows
 * every few seconds copies the histogram once an interval, and the exporter's per-histogram
 * work (told by identity) is done once an interval too.
 *
 * <p>Thread-safe: {@link #snapshot()} is synchronized.
 */
final class LogFollower {

    private static final byte[] NOTHING = new byte[0];

    private final Path log;
    private final Histogram total = new Histogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS);
    private long offset;
    private long intervals;
    private long startMillis;
    private long lastIntervalMaxNanos;
    /** What the last call returned; null until the first. */
    private HiccupSnapshot last;

    LogFollower(final Path log) {
        this.log = log;
    }

    /**
     * Reads what was appended and returns the total so far.
     *
     * @throws IOException when the log cannot be read
     */
    synchronized HiccupSnapshot snapshot() throws IOException {
        final byte[] added = readWholeLines();
        final long before = intervals;
        if (added.length > 0) {
            final HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(added));
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                if (interval.getTag() == null && interval instanceof Histogram) {
                    final Histogram h = (Histogram) interval;
                    total.add(h);
                    lastIntervalMaxNanos = h.getMaxValue();
                    if (intervals++ == 0) {
                        startMillis = h.getStartTimeStamp();
                    }
                }
            }
        }
        if (last == null || intervals != before) {
            last = new HiccupSnapshot(total, intervals, startMillis, lastIntervalMaxNanos, -1, -1);
        }
        return last;
    }

    /** The bytes from the offset to the last line break, moving the offset past them. */
    private byte[] readWholeLines() throws IOException {
        // One stat, without opening the file, answers most calls: a scrape every second or so of
        // a log that grows every few seconds finds nothing new (opening it was a scrape's 2.5%).
        if (log.toFile().length() == offset && offset > 0) {
            return NOTHING;
        }
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "r")) {
            final long length = file.length();
            if (length <= offset) {
                return NOTHING;
            }
            final byte[] bytes = new byte[Math.toIntExact(length - offset)];
            file.seek(offset);
            file.readFully(bytes);
            int end = bytes.length;
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
            offset += end;
            return Arrays.copyOf(bytes, end);
        }
    }
}
