package io.mech.replay;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.Locale;

/**
 * The {@code .hgrm} file {@code -o} writes, as HistogramLogProcessor writes it with {@code -o}:
 * the window's line, the log's start time when it has one, and the merged distribution, so that
 * tools that read HistogramLogProcessor's files read replay's.
 */
final class HgrmFile {

    private HgrmFile() {
    }

    /**
     * @param startTimeSec the first log's start, in seconds since the epoch; 0 when unknown
     */
    static void write(final OutputStream to, final Replay.Result result, final ReplayOptions options, final double startTimeSec) {
        final PrintStream out = new PrintStream(to, false, StandardCharsets.UTF_8);
        // HistogramLogProcessor's own formats, the first in Locale.US and the rest in the default locale
        out.format(Locale.US, "#[%s between %.3f and", "Overall percentile distribution", options.start.seconds());
        if (options.end.seconds() < Double.MAX_VALUE) {
            out.format(" %.3f", options.end.seconds());
        } else {
            out.format(" %s", "<Infinite>");
        }
        out.format(" seconds (relative to StartTime)]\n");
        if (startTimeSec != 0.0) {
            out.format(Locale.US, "#[StartTime: %.3f (seconds since epoch), %s]\n", startTimeSec,
                new Date((long) (startTimeSec * 1000.0)).toString());
        }
        result.merged().total().outputPercentileDistribution(out, options.ticks, options.unitRatio,
            options.format == ReplayOptions.Format.CSV);
        out.flush();
    }
}
