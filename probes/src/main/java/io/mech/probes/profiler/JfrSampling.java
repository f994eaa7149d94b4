package io.mech.probes.profiler;

import java.io.IOException;
import java.nio.file.Path;
import one.profiler.AsyncProfiler;

/**
 * Starting and stopping async-profiler with JFR output. The JDK's own recorder is synchronised
 * into the same file ({@code jfrsync}) so that a capture also holds the JDK's events and mech's
 * own (mech.Hiccup, mech.LockContention, ...): every event class not named in the JDK's settings
 * file is recorded with its own defaults, and mech's are enabled by default.
 */
final class JfrSampling {

    /**
     * async-profiler prints its warnings and errors on the host's standard output, where nothing
     * of mech's belongs: a command's failure comes back as its exception, and mech says that.
     */
    static final String NO_LOG = "loglevel=none";

    private JfrSampling() {
    }

    /**
     * Starts sampling into a JFR file.
     *
     * @param profiler the loaded profiler
     * @param events   async-profiler's event options, such as {@code event=wall}
     * @param jfr      the file written at {@link #stop}
     * @return true when the JDK's events are synchronised into the file; false when the JDK's
     *     recorder refused (a JVM run with it disabled) and only async-profiler's samples are
     * @throws IOException with async-profiler's message when it does not start at all
     */
    static boolean start(final AsyncProfiler profiler, final String events, final Path jfr) throws IOException {
        final String common = "start," + events + "," + NO_LOG + ",jfr,file=" + jfr.toAbsolutePath();
        try {
            profiler.execute(common + ",jfrsync=default");
            return true;
        } catch (final IllegalArgumentException | IllegalStateException | IOException synced) {
            try {
                profiler.execute(common);
                return false;
            } catch (final IllegalArgumentException | IllegalStateException | IOException e) {
                throw new IOException("async-profiler did not start (" + events + "): " + e.getMessage(), e);
            }
        }
    }

    /** Stops sampling and writes the JFR file named at {@link #start}. */
    static void stop(final AsyncProfiler profiler, final Path jfr) throws IOException {
        try {
            profiler.execute("stop");
        } catch (final IllegalStateException e) {
            throw new IOException("async-profiler did not write " + jfr + ": " + e.getMessage(), e);
        }
    }
}
