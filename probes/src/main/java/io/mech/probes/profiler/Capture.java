package io.mech.probes.profiler;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import one.profiler.AsyncProfiler;

/**
 * One capture started on the spot: async-profiler samples for a while into a JFR file, then the
 * flame graph and metadata are drawn from it (see {@link CaptureOutput}).
 */
public final class Capture {

    private Capture() {
    }

    /**
     * Profiles this JVM, blocking the calling thread for the capture's length.
     *
     * @param profiler the loaded profiler
     * @param event    what to sample
     * @param millis   how long to sample
     * @param html     the flame graph to write; the JFR file and metadata go beside it
     * @param trigger  why the capture was taken
     * @param mode     trigger or ondemand, for the metadata
     * @throws IOException when async-profiler refuses to start or to write, with its message
     */
    public static void run(final AsyncProfiler profiler, final ProfileEvent event, final long millis, final Path html,
        final String trigger, final String mode) throws IOException, InterruptedException {
        final Path jfr = CaptureFiles.jfrOf(html);
        final Instant start = Instant.now();
        final boolean jdkEvents = JfrSampling.start(profiler, "event=" + event.asyncProfilerName(), jfr);
        try {
            Thread.sleep(millis);
        } finally {
            JfrSampling.stop(profiler, jfr);
        }
        CaptureOutput.write(jfr, html, new CaptureOutput.Info(trigger, mode, start, millis, event.asyncProfilerName(), event, jdkEvents),
            profiler.getVersion());
    }
}
