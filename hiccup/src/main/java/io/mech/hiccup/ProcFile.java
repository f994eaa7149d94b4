package io.mech.hiccup;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * One small kernel file of figures ({@code /proc}, a cgroup's {@code cpu.stat}), kept open and
 * read again from its start into one byte array, its numbers parsed from the bytes: a reading
 * allocates nothing. {@link RandomAccessFile} rather than a {@code FileChannel}: a channel's read
 * allocated now and then once compiled (816 bytes over 1,400 stalls in MeterAllocationTest), a
 * {@code RandomAccessFile}'s native read never does. {@code Files.readAllLines} of
 * {@code /proc/stat} and {@code cpu.stat} five times a second were 1.6 MiB of an idle host's
 * garbage in its first 10 s.
 *
 * <p>Thread contract: none; one thread at a time reads a file and parses what it read.
 */
public final class ProcFile implements AutoCloseable {

    /** Enough for the files read: a cgroup's {@code cpu.stat} and the first line of {@code /proc/stat} with room. */
    private static final int SIZE = 4096;

    private final RandomAccessFile file;
    private final byte[] buffer = new byte[SIZE];
    /** How many bytes of {@link #buffer} the last read filled. */
    private int filled;

    private ProcFile(final RandomAccessFile file) {
        this.file = file;
    }

    /** @return the open file, or null where it cannot be opened (not Linux, no such cgroup file) */
    public static ProcFile open(final Path path) {
        try {
            return new ProcFile(new RandomAccessFile(path.toFile(), "r"));
        } catch (final IOException | RuntimeException e) {
            return null;
        }
    }

    /** Reads the file again from its start, up to {@value #SIZE} bytes; false where nothing could be read. */
    public boolean read() {
        filled = 0;
        try {
            file.seek(0);
            filled = Math.max(0, file.read(buffer, 0, buffer.length));
            return filled > 0;
        } catch (final IOException e) {
            return false;
        }
    }

    /** The offset just past the last {@code c} read, 0 where there is none: past a command's closing parenthesis. */
    public int after(final char c) {
        int at = filled - 1;
        while (at > 0 && buffer[at] != c) {
            at--;
        }
        return at + 1;
    }

    /** The {@code n}th space-separated number from {@code from}, counting from 0; 0 where there is none. */
    public long field(final int from, final int n) {
        int at = from;
        final int end = filled;
        for (int i = 0; i < n; i++) {
            while (at < end && buffer[at] == ' ') {
                at++;
            }
            while (at < end && buffer[at] != ' ' && buffer[at] != '\n') {
                at++;
            }
        }
        while (at < end && buffer[at] == ' ') {
            at++;
        }
        return number(at, end);
    }

    /** The number after {@code key} at a line's start; -1 where no line has the key. */
    public long value(final String key) {
        final int end = filled;
        int line = 0;
        while (line < end) {
            if (startsWith(line, key, end)) {
                return number(line + key.length(), end);
            }
            while (line < end && buffer[line] != '\n') {
                line++;
            }
            line++;
        }
        return -1;
    }

    /**
     * A cgroup's {@code cpu.stat} as read last: its periods, throttled periods and throttled
     * nanoseconds (v2 counts microseconds, v1 nanoseconds), into {@code into[at..at+2]}.
     *
     * @return false where the figures are not all there: {@code into} is left as it was
     */
    public boolean throttling(final long[] into, final int at) {
        final long periods = value("nr_periods ");
        final long throttlings = value("nr_throttled ");
        final long micros = value("throttled_usec ");
        final long nanos = micros >= 0 ? micros * 1_000 : value("throttled_time ");
        if (periods < 0 || throttlings < 0 || nanos < 0) {
            return false;
        }
        into[at] = periods;
        into[at + 1] = throttlings;
        into[at + 2] = nanos;
        return true;
    }

    private boolean startsWith(final int at, final String key, final int end) {
        if (at + key.length() > end) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            if (buffer[at + i] != key.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private long number(final int from, final int end) {
        long value = 0;
        for (int at = from; at < end; at++) {
            final byte b = buffer[at];
            if (b < '0' || b > '9') {
                break;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    /** Closes the file; never throws: a read-only file of /proc or /sys has nothing to lose. */
    @Override
    public void close() {
        try {
            file.close();
        } catch (final IOException ignored) {
            // nothing to lose
        }
    }
}
