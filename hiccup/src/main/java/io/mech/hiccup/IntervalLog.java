package io.mech.hiccup;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * One interval log file in HdrHistogram's format 1.3, flushed after every interval so that a
 * reader (or a crash) sees each interval as soon as it closes.
 *
 * <p>A log that cannot be opened or written is reported once through the warning sink and then
 * left alone: the caller keeps recording in memory. Not thread-safe: one thread writes.
 */
final class IntervalLog {

    private final Path path;
    private final Consumer<String> warnings;
    private boolean opened;
    private String problem;
    private FailureKeepingStream sink;
    private PrintStream stream;
    private HistogramLogWriter writer;

    private IntervalLog(final Path path, final Consumer<String> warnings) {
        this.path = path;
        this.warnings = warnings;
    }

    /**
     * Opens the log for writing now, so that an unwritable path is reported at start-up rather
     * than at the first interval.
     */
    static IntervalLog open(final Path path, final Consumer<String> warnings) {
        final IntervalLog log = new IntervalLog(path, warnings);
        try {
            final Path parent = path.toAbsolutePath().getParent();
            if (parent != null && !parent.toFile().isDirectory()) {
                throw new IOException("no such directory: " + parent);
            }
            final FileChannel channel = FileTarget.open(path);
            channel.truncate(0);
            log.sink = new FailureKeepingStream(Channels.newOutputStream(channel));
            log.stream = new PrintStream(new BufferedOutputStream(log.sink, 64 * 1024), false, StandardCharsets.US_ASCII);
            log.writer = new HistogramLogWriter(log.stream);
            log.opened = true;
        } catch (final IOException | SecurityException e) {
            log.problem = reason(e);
            warnings.accept("cannot write hiccup log " + path + " (" + log.problem + "); recording in memory only");
        }
        return log;
    }

    /** An exception's message, or its class where it has none. */
    private static String reason(final Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** Where the log goes and whether it is written, as things stand. */
    LogStatus status() {
        return new LogStatus(path, opened, problem);
    }

    /** Writes the version, start time, base time and legend lines; interval times are relative to startMillis. */
    void writeHeader(final long startMillis) {
        if (writer == null) {
            return;
        }
        writer.outputLogFormatVersion();
        // HdrHistogram's own StartTime line renders the date with Date.toString(), which loads the
        // locale's time zone names; readers parse only the number, so an ISO-8601 date serves,
        // built without DateTimeFormatter for the same reason.
        writer.outputComment("[StartTime: " + seconds(startMillis) + " (seconds since epoch), "
            + LocalDateTime.ofEpochSecond(Math.floorDiv(startMillis, 1000), Math.toIntExact(Math.floorMod(startMillis, 1000L) * 1_000_000L),
                ZoneOffset.UTC) + "Z]");
        writer.setBaseTime(startMillis);
        writer.outputBaseTime(startMillis);
        writer.outputLegend();
        flush();
    }

    private static String seconds(final long millis) {
        final String fraction = Long.toString(1000 + Math.floorMod(millis, 1000)).substring(1);
        return Math.floorDiv(millis, 1000) + "." + fraction;
    }

    /** Appends one interval, whose start and end time stamps must be set, and flushes it. */
    void write(final Histogram interval) {
        if (writer == null) {
            return;
        }
        writer.outputIntervalHistogram(interval);
        flush();
    }

    private void flush() {
        stream.flush();
        if (stream.checkError()) {
            final IOException cause = sink.failure();
            final String reason = cause == null ? "unknown I/O error" : reason(cause);
            problem = "writing failed: " + reason;
            warnings.accept("writing hiccup log " + path + " failed (" + reason + "); recording in memory only");
            writer = null;
            stream.close();
        }
    }

    void close() {
        if (writer != null) {
            writer = null;
            stream.close();
        }
    }
}
