package io.mech.probes.profiler;

import java.nio.file.Path;

/**
 * How the profiler captures on trigger.
 *
 * @param dir           where captures go
 * @param extractDir    where async-profiler's native library is extracted (must allow exec)
 * @param event         what each capture samples
 * @param continuous    true: a low-rate profile runs all the time and a capture is the window
 *                      around its trigger; false: a capture starts sampling at its trigger
 * @param captureMillis how long each capture samples; in continuous mode, the segment length
 * @param cooldownNanos shortest time from one capture's start to the next
 * @param maxFiles      captures kept in {@code dir}; the oldest are removed first
 * @param ttsp          whether to sample, between captures, the methods running while safepoints
 *                      wait (see {@link TtspSampling}); not in continuous mode, whose profile holds
 *                      async-profiler all the time
 */
public record ProfilerSettings(Path dir, Path extractDir, ProfileEvent event, boolean continuous, long captureMillis, long cooldownNanos,
                               int maxFiles, boolean ttsp) {

    /** Validates eagerly, naming the bound that was missed. */
    public ProfilerSettings {
        if (captureMillis < 100 || captureMillis > 600_000) {
            throw new IllegalArgumentException("profiler.seconds must be from 100ms to 10m, got " + captureMillis + " ms");
        }
        if (cooldownNanos < 0) {
            throw new IllegalArgumentException("profiler.cooldown must not be negative");
        }
        if (maxFiles < 1) {
            throw new IllegalArgumentException("profiler.max-files must be at least 1, got " + maxFiles);
        }
    }
}
