package io.mech.hiccup;

import java.nio.file.Path;

/**
 * What a {@link HiccupRecorder} measures and where it logs, validated on construction.
 *
 * @param resolutionNanos how long the meter thread waits each time; also the expected
 *                        interval used to correct for coordinated omission
 * @param intervalNanos   length of one logged interval
 * @param delayNanos      what is recorded before this much time has passed is discarded
 * @param stallNanos      hiccups at least this long are counted and summed as stalls
 * @param log             the interval log to write, or {@code null} to record in memory only
 */
public record HiccupSettings(long resolutionNanos, long intervalNanos, long delayNanos, long stallNanos, Path log) {

    /** The longest hiccup that can be recorded as such (longer ones are clamped): one day. */
    public static final long HIGHEST_TRACKABLE_NANOS = 86_400_000_000_000L;

    /** Checks the bounds; a violation names the bound. */
    public HiccupSettings {
        if (resolutionNanos < 1_000) {
            throw new IllegalArgumentException("resolution must be at least 1us, got " + resolutionNanos + "ns");
        }
        if (intervalNanos < 10_000_000) {
            throw new IllegalArgumentException("interval must be at least 10ms, got " + intervalNanos + "ns");
        }
        if (resolutionNanos > intervalNanos) {
            throw new IllegalArgumentException("resolution (" + resolutionNanos
                + "ns) must not exceed the interval (" + intervalNanos + "ns)");
        }
        if (stallNanos < 1_000) {
            throw new IllegalArgumentException("stall threshold must be at least 1us, got " + stallNanos + "ns");
        }
        if (delayNanos < 0) {
            throw new IllegalArgumentException("delay must not be negative, got " + delayNanos + "ns");
        }
    }

    /** @return these settings with another log: the file written, or null for none */
    public HiccupSettings withLog(final Path other) {
        return new HiccupSettings(resolutionNanos, intervalNanos, delayNanos, stallNanos, other);
    }
}
