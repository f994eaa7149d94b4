package io.mech.replay;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into lines without creating a String per line: a day of one-second
 * intervals is 86,400 lines of about 230 bytes, and garbage on that scale grows the heap.
 *
 * <p>After {@link #next()} returns true, the line is {@code buffer()[start() .. end())} without its
 * line terminator (LF or CRLF); it stays valid until the next call. {@link #terminated()} tells
 * whether the line ended with a line feed, which a log cut off mid-write lacks. A gzip stream that
 * ends early counts as the end of the input, so that its last line appears unterminated.
 */
final class LineReader {

    /** Longer lines are refused rather than buffered: no interval line comes near this. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private final InputStream in;
    /** Small to start with, since a fleet merge holds one per log; it grows for a longer line. */
    private byte[] buffer = new byte[LogInput.READ_BYTES];
    private int start;
    private int end;
    private int scan;
    private int limit;
    private boolean eof;
    private boolean terminated;
    private long lineNumber;
    private long bytesRead;

    LineReader(final InputStream in) {
        this.in = in;
    }

    /**
     * Advances to the next line.
     *
     * @return false at the end of the input
     * @throws IOException when reading fails or a line exceeds {@link #MAX_LINE_BYTES}
     */
    boolean next() throws IOException {
        start = scan;
        while (true) {
            for (int i = scan; i < limit; i++) {
                if (buffer[i] == '\n') {
                    end = i > start && buffer[i - 1] == '\r' ? i - 1 : i;
                    scan = i + 1;
                    terminated = true;
                    lineNumber++;
                    return true;
                }
            }
            scan = limit;
            if (eof) {
                if (start == limit) {
                    return false;
                }
                end = limit;
                scan = limit;
                terminated = false;
                lineNumber++;
                return true;
            }
            fill();
        }
    }

    private void fill() throws IOException {
        if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, limit - start);
            limit -= start;
            scan -= start;
            start = 0;
        }
        if (limit == buffer.length) {
            if (buffer.length >= MAX_LINE_BYTES) {
                throw new IOException("line " + (lineNumber + 1) + " is longer than " + MAX_LINE_BYTES + " bytes");
            }
            buffer = Arrays.copyOf(buffer, Math.min(buffer.length * 2, MAX_LINE_BYTES));
        }
        final int n;
        try {
            n = in.read(buffer, limit, buffer.length - limit);
        } catch (final EOFException e) {
            eof = true;
            return;
        }
        if (n < 0) {
            eof = true;
        } else {
            limit += n;
            bytesRead += n;
        }
    }

    byte[] buffer() {
        return buffer;
    }

    int start() {
        return start;
    }

    int end() {
        return end;
    }

    boolean terminated() {
        return terminated;
    }

    /** The 1-based number of the current line. */
    long lineNumber() {
        return lineNumber;
    }

    /** Bytes taken from the underlying stream so far. */
    long bytesRead() {
        return bytesRead;
    }
}
