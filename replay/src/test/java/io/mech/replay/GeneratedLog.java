package io.mech.replay;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * Writes a log as mech's recorder does (StartTime, BaseTime, one untagged hiccup line a second and,
 * when asked, one line per cause after it), from a seed, and adds up the untagged intervals it
 * wrote with HdrHistogram's own {@code add}, for a test to compare with.
 */
final class GeneratedLog {

    static final String[] CAUSES = {"gc", "safepoint", "mech", "os"};

    /** The sum of the untagged intervals written, shaped like them, by {@code Histogram.add}. */
    final Histogram sum;
    /** How many untagged intervals were written. */
    final int intervals;
    /** Per cause (as in {@link #CAUSES}), the sum of the tagged lines' maxima, in ns. */
    final long[] causeNanos = new long[CAUSES.length];

    /**
     * @param file        where to write
     * @param seed        what makes the content differ from log to log
     * @param startMillis the log's start, ms since the epoch
     * @param seconds     how many one-second intervals
     * @param digits      significant digits of the histograms
     * @param stallEvery  on average one stall (2 to 150 ms) in this many intervals
     * @param causes      whether to write a line per cause after each interval
     */
    GeneratedLog(final Path file, final long seed, final long startMillis, final int seconds, final int digits,
        final int stallEvery, final boolean causes) throws IOException {
        final Random random = new Random(seed);
        try (PrintStream out = new PrintStream(new BufferedOutputStream(Files.newOutputStream(file)), false, StandardCharsets.US_ASCII)) {
            final HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputLogFormatVersion();
            w.outputStartTime(startMillis);
            w.setBaseTime(startMillis);
            w.outputBaseTime(startMillis);
            w.outputLegend();
            final Histogram h = new Histogram(86_400_000_000_000L, digits);
            final Histogram t = new Histogram(86_400_000_000_000L, digits);
            sum = new Histogram(h);
            sum.setAutoResize(true);
            for (int i = 0; i < seconds; i++) {
                h.reset();
                final int samples = 200 + random.nextInt(100);
                for (int s = 0; s < samples; s++) {
                    h.recordValue(40_000 + (long) (Math.abs(random.nextGaussian()) * (10_000 + seed % 7 * 5_000)));
                }
                long stall = 0;
                final int cause = random.nextInt(CAUSES.length);
                if (random.nextInt(stallEvery) == 0) {
                    stall = 2_000_000L + random.nextInt(148_000_000);
                    h.recordValueWithExpectedInterval(stall, 1_000_000L);
                }
                h.setStartTimeStamp(startMillis + i * 1000L);
                h.setEndTimeStamp(startMillis + (i + 1) * 1000L);
                w.outputIntervalHistogram(h);
                sum.add(h);
                if (causes) {
                    for (int c = 0; c < CAUSES.length; c++) {
                        t.reset();
                        if (stall > 0 && c == cause) {
                            t.recordValueWithExpectedInterval(stall, 1_000_000L);
                            causeNanos[c] += t.getMaxValue();
                        }
                        t.setTag(CAUSES[c]);
                        t.setStartTimeStamp(h.getStartTimeStamp());
                        t.setEndTimeStamp(h.getEndTimeStamp());
                        w.outputIntervalHistogram(t);
                    }
                }
            }
        }
        intervals = seconds;
    }
}
