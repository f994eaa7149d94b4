package io.mech.replay;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/**
 * One log named on the command line, opened: a file or standard input, gzip-compressed or not.
 *
 * <p>Buffers are small on purpose: a fleet merge keeps every log open at once, and the
 * {@link LineReader} above does the buffering, so a thousand logs cost a few megabytes here.
 */
final class LogInput {

    /** Bytes asked of the file (or of the gzip stream) at a time. */
    static final int READ_BYTES = 8 * 1024;

    private final InputStream stream;
    private final Counted raw;

    private LogInput(final InputStream stream, final Counted raw) {
        this.stream = stream;
        this.raw = raw;
    }

    /**
     * Opens the log, recognising gzip by its magic bytes rather than by the file name.
     *
     * @param name  a path, or {@code -} for {@code stdin}
     * @param stdin standard input
     * @return the log, ready for {@link #stream()}
     * @throws IOException with a message fit for the user when the log cannot be read
     */
    static LogInput open(final String name, final InputStream stdin) throws IOException {
        final InputStream file;
        if (name.equals("-")) {
            file = stdin;
        } else {
            final Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                throw new IOException(name + ": is a directory, not a log");
            }
            try {
                file = Files.newInputStream(path);
            } catch (final NoSuchFileException e) {
                throw new IOException(name + ": no such file", e);
            } catch (final IOException | SecurityException e) {
                throw new IOException(name + ": cannot be read (" + e + ")", e);
            }
        }
        final Counted raw = new Counted(file);
        final PushbackInputStream in = new PushbackInputStream(raw, 2);
        final byte[] magic = new byte[2];
        int got = 0;
        try {
            while (got < 2) {
                final int n = in.read(magic, got, 2 - got);
                if (n < 0) {
                    break;
                }
                got += n;
            }
            in.unread(magic, 0, got);
        } catch (final IOException e) {
            in.close();
            throw new IOException(name + ": cannot be read (" + e.getMessage() + ")", e);
        }
        if (got == 2 && (magic[0] & 0xff) == 0x1f && (magic[1] & 0xff) == 0x8b) {
            try {
                return new LogInput(new GZIPInputStream(in, READ_BYTES), raw);
            } catch (final IOException e) {
                in.close();
                throw new IOException(name + ": damaged gzip header (" + e.getMessage() + ")", e);
            }
        }
        return new LogInput(in, raw);
    }

    /** The log's bytes, decompressed. */
    InputStream stream() {
        return stream;
    }

    /** Bytes taken from the file so far, compressed if it is: the measure of progress. */
    long rawBytesRead() {
        return raw.count;
    }

    /** Counts the bytes read through it. */
    private static final class Counted extends FilterInputStream {
        private long count;

        Counted(final InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            final int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(final byte[] b, final int off, final int len) throws IOException {
            final int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(final long n) throws IOException {
            final long skipped = super.skip(n);
            count += skipped;
            return skipped;
        }
    }
}
