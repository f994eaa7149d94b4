package io.mech.probes.profiler;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import one.profiler.AsyncProfiler;

/**
 * One capture started on the spot: async-profiler samples for a while into a JFR file, then the
 * flame graph and metadata are drawn from it (see {@link CaptureOutput}).
 */
public final class Capture {

    /** Never cuts a capture short. */
    public static final BooleanSupplier FULL_LENGTH = new BooleanSupplier() {
        @Override
        public boolean getAsBoolean() {
            return false;
        }
    };

    private Capture() {
    }

    /**
     * Profiles this JVM, blocking the calling thread while it samples and while its files are
     * written. Sampling ends after {@code millis}, or sooner once {@code cut} answers true: it is
     * asked when the thread starts waiting and whenever it is unparked
     * ({@link LockSupport#unpark}), so whoever sets it unparks the thread. An interrupt ends
     * sampling too; it is held aside while the files are written (the converter reads through a
     * file channel, which an interrupt would close) and kept for the caller.
     *
     * @param profiler the loaded profiler
     * @param event    what to sample
     * @param millis   how long to sample
     * @param html     the flame graph to write; the JFR file and metadata go beside it
     * @param trigger  why the capture was taken
     * @param mode     trigger or ondemand, for the metadata
     * @param cut      answers true when sampling must end now
     * @param opener   creates the flame graph and metadata files
     * @return how long it sampled, in milliseconds: less than {@code millis} when it was cut short
     * @throws IOException when async-profiler refuses to start or to write, with its message
     */
    public static long run(final AsyncProfiler profiler, final ProfileEvent event, final long millis, final Path html,
        final String trigger, final String mode, final BooleanSupplier cut, final CaptureOutput.Opener opener) throws IOException {
        final Path jfr = CaptureFiles.jfrOf(html);
        final Instant start = Instant.now();
        final long begin = System.nanoTime();
        final long end = begin + millis * 1_000_000L;
        final boolean jdkEvents = JfrSampling.start(profiler, "event=" + event.asyncProfilerName(), jfr);
        long now;
        try {
            while ((now = System.nanoTime()) - end < 0 && !cut.getAsBoolean() && !Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(end - now);
            }
        } finally {
            try {
                JfrSampling.stop(profiler, jfr);
            } catch (final IOException e) {
                if (!cut.getAsBoolean()) {
                    throw e;
                }
                // At exit the JDK's recorder stops its recordings in a shutdown hook of its own, and
                // async-profiler, synchronised with one, stops with it and writes the file itself:
                // the conversion below reads whether it is whole.
            }
        }
        final long sampled = Math.min(millis, (now - begin) / 1_000_000L);
        final boolean interrupted = Thread.interrupted();
        try {
            CaptureOutput.write(jfr, html, new CaptureOutput.Info(trigger, mode, start, sampled, event.asyncProfilerName(), event, jdkEvents,
                sampled < millis), profiler.getVersion(), opener);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return sampled;
    }
}
