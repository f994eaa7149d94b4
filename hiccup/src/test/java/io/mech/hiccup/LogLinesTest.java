package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.HdrHistogram.PackedHistogram;
import org.junit.jupiter.api.Test;

class LogLinesTest {

    private static final long START = 1_764_300_000_123L;
    private static final String DATE = "2025-11-28T03:20:00.123Z";

    /** Full-range histograms, packed ones (the causes'), a dynamic one, tagged and untagged, empty, and values at the range's ends. */
    private static List<Histogram> intervals() {
        final SplittableRandom random = new SplittableRandom(42);
        final List<Histogram> intervals = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            final Histogram h = i % 7 == 3 ? new Histogram(HiccupRecorder.SIGNIFICANT_DIGITS)
                : i % 7 == 5 ? new PackedHistogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS)
                : new Histogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS);
            final int values = i % 5 == 0 ? 0 : random.nextInt(1, 2_000);
            for (int v = 0; v < values; v++) {
                h.recordValueWithCount(random.nextLong(1, 1L << random.nextInt(1, 46)), random.nextInt(1, 1_000));
            }
            if (i == 11) {
                h.recordValue(HiccupSettings.HIGHEST_TRACKABLE_NANOS);
            }
            if (i % 3 == 1) {
                h.setTag(i % 2 == 0 ? "gc" : "unknown");
            }
            h.setStartTimeStamp(START + i * 1_000L + random.nextInt(0, 3));
            h.setEndTimeStamp(h.getStartTimeStamp() + random.nextInt(1, 60_000));
            intervals.add(h);
        }
        return intervals;
    }

    private static byte[] ours(final List<Histogram> intervals) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, false, StandardCharsets.US_ASCII);
        final LogLines lines = new LogLines(out);
        lines.header(START, DATE);
        for (final Histogram h : intervals) {
            lines.interval(h);
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Test
    void linesAreHdrHistogramsOwnByteForByte() {
        final List<Histogram> intervals = intervals();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(bytes, false, StandardCharsets.US_ASCII);
        final HistogramLogWriter theirs = new HistogramLogWriter(out);
        theirs.outputLogFormatVersion();
        theirs.outputComment("[StartTime: " + (START / 1000) + "." + (START % 1000) + " (seconds since epoch), " + DATE + "]");
        theirs.setBaseTime(START);
        theirs.outputBaseTime(START);
        theirs.outputLegend();
        for (final Histogram h : intervals) {
            theirs.outputIntervalHistogram(h);
        }
        out.flush();
        assertEquals(bytes.toString(StandardCharsets.US_ASCII), new String(ours(intervals), StandardCharsets.US_ASCII));
    }

    @Test
    void hdrHistogramsReaderReadsBackEveryInterval() {
        final List<Histogram> intervals = intervals();
        final HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(ours(intervals)));
        for (final Histogram written : intervals) {
            final Histogram read = (Histogram) reader.nextIntervalHistogram();
            assertEquals(written, read);
            assertEquals(written.getTag(), read.getTag());
            // the reader turns seconds with three decimals back into milliseconds through a double
            assertEquals(written.getStartTimeStamp(), read.getStartTimeStamp(), 1);
            assertEquals(written.getEndTimeStamp(), read.getEndTimeStamp(), 1);
        }
        assertEquals(null, reader.nextIntervalHistogram());
        assertEquals(START / 1000.0, reader.getStartTimeSec(), 1e-9);
    }

    @Test
    void aLineAllocatesNothingOnceItsBuffersHaveGrown() {
        final List<Histogram> intervals = intervals();
        final LogLines lines = new LogLines(new PrintStream(PrintStream.nullOutputStream(), false, StandardCharsets.US_ASCII));
        lines.header(START, DATE);
        for (final Histogram h : intervals) {
            lines.interval(h);
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int round = 0; round < 10; round++) {
            for (final Histogram h : intervals) {
                lines.interval(h);
            }
        }
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        // 400 lines: anything per line would show as at least 400 objects' worth
        assertTrue(allocated < 4_096, "400 lines allocated " + allocated + " bytes");
    }
}
