package io.mech.hiccup;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * One interval log file in HdrHistogram's format 1.3, flushed after every interval so that a
 * reader (or a crash) sees each interval as soon as it closes.
 *
 * <p>The log holds an exclusive lock on its file while it is open: two JVMs given one log path
 * (a shared {@code hiccup.log} without {@code %pid}) would otherwise truncate and interleave each
 * other's lines into a log no reader can parse. The second to come says so once and logs to the
 * path plus {@code .<pid>} instead. The file is opened without following a symbolic link (see
 * {@link FileTarget}).
 *
 * <p>A log that cannot be opened or written is reported once through the warning sink and then
 * left alone: the caller keeps recording in memory. Not thread-safe: one thread writes.
 */
final class IntervalLog {

    private final Path path;
    private final Consumer<String> warnings;
    private final boolean opened;
    private String problem;
    private final FailureKeepingStream sink;
    private final PrintStream stream;
    private LogLines writer;

    /** A log written to its channel. */
    private IntervalLog(final Path path, final FileChannel channel, final Consumer<String> warnings) {
        this.path = path;
        this.warnings = warnings;
        this.opened = true;
        this.sink = new FailureKeepingStream(Channels.newOutputStream(channel));
        this.stream = new PrintStream(new BufferedOutputStream(sink, 64 * 1024), false, StandardCharsets.US_ASCII);
        this.writer = new LogLines(stream);
    }

    /** A log that could not be opened, and why. */
    private IntervalLog(final Path path, final String problem, final Consumer<String> warnings) {
        this.path = path;
        this.warnings = warnings;
        this.opened = false;
        this.problem = problem;
        this.sink = null;
        this.stream = null;
    }

    /**
     * Opens the log for writing now, so that an unwritable path is reported at start-up rather
     * than at the first interval.
     *
     * @param path     the log asked for; when another process holds it, the log goes to this path
     *                 plus {@code .<pid>} (one warning says so)
     * @param warnings told once of each problem with the log
     */
    static IntervalLog open(final Path path, final Consumer<String> warnings) {
        Path written = path;
        FileChannel channel = null;
        try {
            final Path parent = path.toAbsolutePath().getParent();
            if (parent != null && !parent.toFile().isDirectory()) {
                throw new IOException("no such directory: " + parent);
            }
            channel = FileTarget.open(path);
            if (!exclusive(channel)) {
                channel.close();
                channel = null;
                written = Path.of(path + "." + Pid.current());
                warnings.accept("hiccup log " + path + " is being written by another process; this one logs to " + written);
                channel = FileTarget.open(written);
                if (!exclusive(channel)) {
                    throw new IOException("being written by another process too");
                }
            }
            // Only now that the file is this log's alone: another's must not lose what it wrote.
            channel.truncate(0);
            return new IntervalLog(written, channel, warnings);
        } catch (final IOException | SecurityException e) {
            closeQuietly(channel);
            final String problem = reason(e);
            warnings.accept("cannot write hiccup log " + written + " (" + problem + "); recording in memory only");
            return new IntervalLog(written, problem, warnings);
        }
    }

    /**
     * Takes the lock on the whole file, held until the channel closes (at the latest when the
     * process ends, however it ends).
     *
     * @return false when another process holds it, or another log of this JVM (the JVM holds
     *     file locks for the whole process)
     */
    private static boolean exclusive(final FileChannel channel) {
        try {
            return channel.tryLock() != null;
        } catch (final OverlappingFileLockException e) {
            return false;
        } catch (final IOException e) {
            // A file system without locks (some network mounts): logged unguarded, as before locks.
            return true;
        }
    }

    private static void closeQuietly(final FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (final IOException ignored) {
                // Nothing was written through it; the warning that follows says what failed.
            }
        }
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
        // HdrHistogram's own StartTime line renders the date with Date.toString(), which loads the
        // locale's time zone names; readers parse only the number, so an ISO-8601 date serves,
        // built without DateTimeFormatter for the same reason.
        writer.header(startMillis, LocalDateTime.ofEpochSecond(Math.floorDiv(startMillis, 1000),
            Math.toIntExact(Math.floorMod(startMillis, 1000L) * 1_000_000L), ZoneOffset.UTC) + "Z");
        flush();
    }

    /** Appends one interval, whose start and end time stamps must be set, and flushes it. */
    void write(final Histogram interval) {
        if (writer == null) {
            return;
        }
        writer.interval(interval);
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
