package io.mech.replay;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
     * A progress line when err is the process's stderr on a terminal. Linux says where stderr goes
     * in {@code /proc/self/fd/2}, so that {@code replay logs/ > report.txt} still shows progress;
     * elsewhere Java tells only whether the process has a console (stdin and stdout on a
     * terminal), which stands in for stderr being one.
     */
    static ProgressLine forTerminal(final PrintStream err, final long totalBytes) {
        final boolean terminal = err == System.err && stderrIsTerminal();
        return new ProgressLine(terminal && totalBytes > 0 ? err : null, totalBytes);
    }

    private static boolean stderrIsTerminal() {
        try {
            final String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (final IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
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
