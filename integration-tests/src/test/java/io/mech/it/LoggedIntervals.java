package io.mech.it;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * The untagged intervals a running JVM's hiccup log holds so far: only whole lines count, since
 * the writer may be part-way through the last one.
 */
public final class LoggedIntervals {

    private static final Pattern BASE_TIME = Pattern.compile("#\\[BaseTime: ([0-9.]+) ");

    /** One interval line: absolute start and end in epoch milliseconds, and its sample count. */
    public record Interval(long startMillis, long endMillis, long count) {
    }

    private LoggedIntervals() {
    }

    /**
     * @param log a log being written, or finished
     * @return its untagged intervals in order; empty while it has no header
     */
    public static List<Interval> of(final Path log) throws IOException, DataFormatException {
        final List<Interval> intervals = new ArrayList<>();
        if (!Files.exists(log)) {
            return intervals;
        }
        final String text = Files.readString(log, StandardCharsets.US_ASCII);
        final Matcher base = BASE_TIME.matcher(text);
        if (!base.find()) {
            return intervals;
        }
        final double baseSeconds = Double.parseDouble(base.group(1));
        final String whole = text.substring(0, text.lastIndexOf('\n') + 1);
        for (final String line : whole.split("\n")) {
            if (line.isEmpty() || line.startsWith("#") || line.startsWith("\"") || line.startsWith("Tag=")) {
                continue;
            }
            final String[] fields = line.split(",");
            final double start = baseSeconds + Double.parseDouble(fields[0]);
            final double end = start + Double.parseDouble(fields[1]);
            final Histogram histogram = Histogram.decodeFromCompressedByteBuffer(
                ByteBuffer.wrap(Base64.getDecoder().decode(fields[3])), 0);
            intervals.add(new Interval(Math.round(start * 1000), Math.round(end * 1000), histogram.getTotalCount()));
        }
        return intervals;
    }

    /** The samples in the first {@code k} intervals. */
    public static long countOfFirst(final List<Interval> intervals, final int k) {
        long count = 0;
        for (int i = 0; i < k; i++) {
            count += intervals.get(i).count();
        }
        return count;
    }
}
