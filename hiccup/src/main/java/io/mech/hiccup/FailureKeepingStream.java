package io.mech.hiccup;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Remembers the first write failure of the stream it wraps. HdrHistogram's log writer prints
 * through a PrintStream, which swallows the exception; this keeps its message so the warning
 * can say what went wrong (disk full, permission denied).
 *
 * <p>It also holds a writer's interrupt aside while it writes: the wrapped stream is a file
 * channel's, and a channel closes for good when a thread that is interrupted uses it, which
 * would end the log over a shutdown hook's interrupt rather than a failure of the file.
 */
final class FailureKeepingStream extends FilterOutputStream {

    private IOException failure;

    FailureKeepingStream(final OutputStream out) {
        super(out);
    }

    @Override
    public void write(final byte[] b, final int off, final int len) throws IOException {
        final boolean interrupted = Thread.interrupted();
        try {
            out.write(b, off, len);
        } catch (final IOException e) {
            keep(e);
            throw e;
        } finally {
            restore(interrupted);
        }
    }

    @Override
    public void write(final int b) throws IOException {
        final boolean interrupted = Thread.interrupted();
        try {
            out.write(b);
        } catch (final IOException e) {
            keep(e);
            throw e;
        } finally {
            restore(interrupted);
        }
    }

    @Override
    public void flush() throws IOException {
        final boolean interrupted = Thread.interrupted();
        try {
            out.flush();
        } catch (final IOException e) {
            keep(e);
            throw e;
        } finally {
            restore(interrupted);
        }
    }

    private static void restore(final boolean interrupted) {
        if (interrupted) {
            Thread.currentThread().interrupt();
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
