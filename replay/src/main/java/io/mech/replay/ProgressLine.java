package io.mech.replay;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress line on a terminal's stderr once a replay has taken more than {@link #QUIET_NANOS};
 * silent otherwise, so that logs of scripted runs stay clean and quick replays do not flicker.
 */
final class ProgressLine {

    /** A replay quicker than this shows no progress line. */
    static final long QUIET_NANOS = 2_000_000_000L;
    private static final long EVERY_NANOS = 500_000_000L;

    private final PrintStream err;
    private final long totalBytes;
    private final long startNanos;
    private long lastNanos;
    private boolean shown;

    private ProgressLine(final PrintStream err, final long totalBytes) {
        this.err = err;
        this.totalBytes = totalBytes;
        this.startNanos = System.nanoTime();
        this.lastNanos = startNanos;
    }

    /**
     * A progress line when err is the process's stderr on a terminal.
     * Java tells only whether the process has a console (stdin and stdout on a terminal): that
     * stands in for stderr being one.
     */
    static ProgressLine forTerminal(final PrintStream err, final long totalBytes) {
        final boolean terminal = err == System.err && System.console() != null;
        return new ProgressLine(terminal && totalBytes > 0 ? err : null, totalBytes);
    }

    /** Shows how many of the input's bytes have been read, at most twice a second. */
    void at(final long bytesRead) {
        final long now = System.nanoTime();
        if (err == null || now - startNanos < QUIET_NANOS || now - lastNanos < EVERY_NANOS) {
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
