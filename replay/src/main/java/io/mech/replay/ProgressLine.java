package io.mech.replay;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress line on a terminal's stderr while a large input is replayed; silent otherwise, so
 * that logs of scripted runs stay clean.
 */
final class ProgressLine implements Replay.Progress {

    /** Inputs smaller than this replay in about a second: no progress line. */
    static final long LARGE_BYTES = 32L * 1024 * 1024;

    private final PrintStream err;
    private final long totalBytes;
    private long lastNanos;
    private boolean shown;

    private ProgressLine(final PrintStream err, final long totalBytes) {
        this.err = err;
        this.totalBytes = totalBytes;
        this.lastNanos = System.nanoTime();
    }

    /**
     * A progress line when err is the process's stderr on a terminal and the input is large.
     * Java tells only whether the process has a console (stdin and stdout on a terminal): that
     * stands in for stderr being one.
     */
    static ProgressLine forTerminal(final PrintStream err, final long totalBytes) {
        final boolean terminal = err == System.err && System.console() != null;
        return new ProgressLine(terminal && totalBytes >= LARGE_BYTES ? err : null, totalBytes);
    }

    @Override
    public void at(final long bytesRead) {
        final long now = System.nanoTime();
        if (err == null || now - lastNanos < 500_000_000L) {
            return;
        }
        lastNanos = now;
        shown = true;
        err.print(String.format(Locale.ROOT, "\rmech replay: %3.0f%% of %d MiB", 100.0 * Math.min(bytesRead, totalBytes) / totalBytes,
            totalBytes >> 20));
        err.flush();
    }

    void done() {
        if (shown) {
            err.print("\r\033[K");
            err.flush();
        }
    }
}
