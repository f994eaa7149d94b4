package io.mech.hiccup;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Remembers the first write failure of the stream it wraps. HdrHistogram's log writer prints
 * through a PrintStream, which swallows the exception; this keeps its message so the warning
 * can say what went wrong (disk full, permission denied).
 */
final class FailureKeepingStream extends FilterOutputStream {

    private IOException failure;

    FailureKeepingStream(final OutputStream out) {
        super(out);
    }

    @Override
    public void write(final byte[] b, final int off, final int len) throws IOException {
        try {
            out.write(b, off, len);
        } catch (final IOException e) {
            keep(e);
            throw e;
        }
    }

    @Override
    public void write(final int b) throws IOException {
        try {
            out.write(b);
        } catch (final IOException e) {
            keep(e);
            throw e;
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (final IOException e) {
            keep(e);
            throw e;
        }
    }

    private void keep(final IOException e) {
        if (failure == null) {
            failure = e;
        }
    }

    /** The first failure, or {@code null} while every write succeeded. */
    IOException failure() {
        return failure;
    }
}
