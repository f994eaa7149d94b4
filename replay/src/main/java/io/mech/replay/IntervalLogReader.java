package io.mech.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;

/**
 * Reads one HdrHistogram interval log (formats 1.0 to 1.3, tagged or not, with or without
 * {@code #[StartTime]} and {@code #[BaseTime]}) line by line, naming {@code file:line} for every
 * problem.
 *
 * <p>Time stamps are resolved as HdrHistogram's {@code HistogramLogReader} resolves them, so that
 * windows select the same intervals: without a {@code #[StartTime]} line the first interval's
 * time stamp is the start; without a {@code #[BaseTime]} line, time stamps more than a year
 * before the start are taken as relative to it, others as absolute.
 *
 * <p>Unlike that reader it does not stop silently at a line it cannot parse: a damaged line is an
 * error, or with {@code lenient} a warning and a skipped line that {@link #skipped()} counts. A
 * damaged last line without a line feed (a JVM killed mid-write) is always only a warning.
 *
 * <p>Example use:
 * <pre>{@code
 * while (reader.next()) {
 *     if (reader.tag() == null) {
 *         IntervalCounts interval = reader.interval(); // null if the line was skipped
 *     }
 * }
 * }</pre>
 *
 * <p>Not thread-safe.
 */
final class IntervalLogReader {

    private static final double YEAR_SECONDS = 365 * 24 * 3600.0;
    private static final double[] POWERS_OF_TEN = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
        1e14, 1e15};
    private static final int MAX_WARNINGS = 10;

    private final String name;
    private final LineReader lines;
    private final boolean lenient;
    private final Consumer<String> warnings;
    private final PayloadDecoder decoder;

    private double startTimeSec;
    private boolean observedStartTime;
    private double baseTimeSec;
    private boolean observedBaseTime;

    private String tag;
    private double lengthSec;
    private double absoluteStartSec;
    private double maxColumn;
    private int payloadFrom;
    private int payloadTo;
    private long skipped;
    private boolean truncated;
    private int warned;
    private int fieldEnd;

    IntervalLogReader(final String name, final LineReader lines, final boolean lenient, final Consumer<String> warnings) {
        this(name, lines, lenient, warnings, new PayloadDecoder());
    }

    /** A reader sharing a decoder (and its inflater and shape) with readers before it, one at a time. */
    IntervalLogReader(final String name, final LineReader lines, final boolean lenient, final Consumer<String> warnings,
        final PayloadDecoder decoder) {
        this.decoder = decoder;
        this.name = name;
        this.lines = lines;
        this.lenient = lenient;
        this.warnings = warnings;
    }

    /**
     * Advances to the next interval line, taking in the header lines before it.
     *
     * @return false at the end of the log
     * @throws LogFormatException when a line is damaged and the reader is not lenient
     * @throws IOException        when reading fails
     */
    boolean next() throws LogFormatException, IOException {
        while (lines.next()) {
            final byte[] b = lines.buffer();
            int from = lines.start();
            int to = lines.end();
            while (from < to && (b[from] == ' ' || b[from] == '\t')) {
                from++;
            }
            while (to > from && (b[to - 1] == ' ' || b[to - 1] == '\t')) {
                to--;
            }
            if (from == to || b[from] == '"') {
                continue;
            }
            if (b[from] == '#') {
                comment(new String(b, from, to - from, StandardCharsets.ISO_8859_1));
                continue;
            }
            try {
                interval(b, from, to);
                return true;
            } catch (final LogFormatException.Problem p) {
                if (!damaged(p.getMessage())) {
                    return false;
                }
            }
        }
        return false;
    }

    /** Deals with a damaged line: false when it ends the log (a truncated last line). */
    private boolean damaged(final String what) throws LogFormatException, IOException {
        if (!lines.terminated()) {
            truncated = true;
            warnings.accept(name + ":" + lines.lineNumber() + ": last line is incomplete (" + what
                + "), ignored: the writer was probably killed mid-line");
            return false;
        }
        if (!lenient) {
            throw new LogFormatException(name, lines.lineNumber(), what);
        }
        skipped++;
        if (warned++ < MAX_WARNINGS) {
            warnings.accept(name + ":" + lines.lineNumber() + ": " + what + " (skipped)");
        }
        return true;
    }

    private void comment(final String line) {
        if (line.startsWith("#[StartTime:")) {
            final double seconds = leadingNumber(line.substring("#[StartTime:".length()));
            if (!Double.isNaN(seconds)) {
                startTimeSec = seconds;
                observedStartTime = true;
            }
        } else if (line.startsWith("#[BaseTime:")) {
            final double seconds = leadingNumber(line.substring("#[BaseTime:".length()));
            if (!Double.isNaN(seconds)) {
                baseTimeSec = seconds;
                observedBaseTime = true;
            }
        }
    }

    private static double leadingNumber(final String text) {
        final String trimmed = text.trim();
        int end = 0;
        while (end < trimmed.length() && trimmed.charAt(end) != ' ' && trimmed.charAt(end) != ']') {
            end++;
        }
        try {
            final double value = Double.parseDouble(trimmed.substring(0, end));
            return Double.isFinite(value) ? value : Double.NaN;
        } catch (final NumberFormatException e) {
            return Double.NaN;
        }
    }

    private void interval(final byte[] b, final int from, final int to) throws LogFormatException.Problem {
        int at = from;
        String lineTag = null;
        if (to - from >= 4 && b[from] == 'T' && b[from + 1] == 'a' && b[from + 2] == 'g' && b[from + 3] == '=') {
            final int comma = indexOf(b, from + 4, to, (byte) ',');
            if (comma < 0) {
                throw new LogFormatException.Problem("tagged line has no fields after its tag");
            }
            lineTag = new String(b, from + 4, comma - from - 4, StandardCharsets.ISO_8859_1);
            at = comma + 1;
        }
        final double timestamp = number(b, at, to, "start time stamp");
        at = fieldEnd + 1;
        final double length = number(b, at, to, "interval length");
        at = fieldEnd + 1;
        final double max = number(b, at, to, "interval max");
        at = fieldEnd + 1;
        if (fieldEnd >= to) {
            throw new LogFormatException.Problem("line has 3 fields, expected start,length,max,histogram");
        }
        if (length < 0) {
            throw new LogFormatException.Problem("negative interval length " + length);
        }
        if (max < 0) {
            throw new LogFormatException.Problem("negative interval max " + max);
        }
        if (indexOf(b, at, to, (byte) ',') >= 0) {
            throw new LogFormatException.Problem("line has more than 4 fields, expected start,length,max,histogram");
        }
        if (!observedStartTime) {
            startTimeSec = timestamp;
            observedStartTime = true;
        }
        if (!observedBaseTime) {
            baseTimeSec = timestamp < startTimeSec - YEAR_SECONDS ? startTimeSec : 0.0;
            observedBaseTime = true;
        }
        tag = lineTag;
        maxColumn = max;
        lengthSec = length;
        absoluteStartSec = timestamp + baseTimeSec;
        payloadFrom = at;
        payloadTo = to;
    }

    /** Parses the number from {@code from} up to the next comma, setting {@link #fieldEnd} to that comma. */
    private double number(final byte[] b, final int from, final int to, final String what) throws LogFormatException.Problem {
        int end = from;
        while (end < to && b[end] != ',') {
            end++;
        }
        fieldEnd = end;
        int s = from;
        int e = end;
        while (s < e && b[s] == ' ') {
            s++;
        }
        while (e > s && b[e - 1] == ' ') {
            e--;
        }
        if (s == e) {
            throw new LogFormatException.Problem(end >= to ? "line ends before its " + what : "empty " + what);
        }
        // Plain decimals up to 15 digits: the mantissa and the power of ten are exact doubles, so
        // one division rounds exactly as Double.parseDouble does, without creating a String.
        long mantissa = 0;
        int digits = 0;
        int fraction = -1;
        boolean negative = false;
        boolean plain = true;
        for (int i = s; i < e && plain; i++) {
            final byte c = b[i];
            if (c >= '0' && c <= '9') {
                mantissa = mantissa * 10 + (c - '0');
                digits++;
                if (fraction >= 0) {
                    fraction++;
                }
            } else if (c == '.' && fraction < 0) {
                fraction = 0;
            } else if (c == '-' && i == s) {
                negative = true;
            } else {
                plain = false;
            }
        }
        if (plain && digits > 0 && digits <= 15) {
            final double value = fraction > 0 ? mantissa / POWERS_OF_TEN[fraction] : mantissa;
            return negative ? -value : value;
        }
        final String text = new String(b, s, e - s, StandardCharsets.ISO_8859_1);
        try {
            final double value = Double.parseDouble(text);
            if (Double.isFinite(value) && text.chars().allMatch(ch -> ch < 'A' || ch == 'e' || ch == 'E')) {
                return value;
            }
        } catch (final NumberFormatException ignored) {
            // reported below, with the text
        }
        throw new LogFormatException.Problem(what + " is not a number: '" + shorten(text) + "'");
    }

    private static String shorten(final String text) {
        final StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && i < 40; i++) {
            final char c = text.charAt(i);
            out.append(c >= ' ' && c < 127 ? c : '?');
        }
        return text.length() > 40 ? out + "..." : out.toString();
    }

    private static int indexOf(final byte[] b, final int from, final int to, final byte c) {
        for (int i = from; i < to; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Decodes the current line's histogram, stamped with its absolute start and end in ms.
     *
     * @return the counts, owned by this reader's decoder until its next decoding; null if the line
     *     was damaged and skipped (lenient, or the truncated last line)
     * @throws LogFormatException when the payload is damaged and the reader is not lenient
     * @throws IOException        never in practice; declared with the error path it shares
     */
    IntervalCounts interval() throws LogFormatException, IOException {
        try {
            final IntervalCounts interval = decoder.decode(lines.buffer(), payloadFrom, payloadTo);
            interval.setTimes((long) (absoluteStartSec * 1000.0), (long) ((absoluteStartSec + lengthSec) * 1000.0));
            return interval;
        } catch (final LogFormatException.Problem p) {
            damaged(p.getMessage());
            return null;
        }
    }

    /**
     * The current line's max column as written: the interval's max divided by the writer's ratio
     * (HdrHistogram's default makes it milliseconds, written with three decimals). Zero means
     * that nothing in the interval reached half a microsecond: no stall, so a reader summing stalls
     * can skip decoding it.
     */
    double maxColumn() {
        return maxColumn;
    }

    /** The name used in messages: the file as given, or {@code -} for standard input. */
    String name() {
        return name;
    }

    /** The current line's tag, or null for an untagged line. */
    String tag() {
        return tag;
    }

    /** The current line's start, in seconds since the epoch. */
    double absoluteStartSec() {
        return absoluteStartSec;
    }

    /** The current line's start relative to the log's start time, as HistogramLogProcessor's windows see it. */
    double offsetSec() {
        return absoluteStartSec - startTimeSec;
    }

    /** The current line's length in seconds. */
    double lengthSec() {
        return lengthSec;
    }

    /** The log's start, seconds since the epoch: its StartTime line, else its first interval's start. */
    double startTimeSec() {
        return startTimeSec;
    }

    /** Lines read so far, header included. */
    long linesRead() {
        return lines.lineNumber();
    }

    /** Damaged lines skipped so far (lenient only). */
    long skipped() {
        return skipped;
    }

    /** Whether the log ended in an incomplete line. */
    boolean truncated() {
        return truncated;
    }

    /** Bytes consumed so far from the underlying stream. */
    long bytesRead() {
        return lines.bytesRead();
    }
}
