package io.mech.probes.locks;

/**
 * How the lock probe runs.
 *
 * @param thresholdNanos the shortest monitor enter, wait and j.u.c. lock park JFR reports with a stack
 *                       trace (option {@code probes.locks.threshold}, default 1 ms; JFR's
 *                       default.jfc says 20 ms, which missed most of the contention measured on
 *                       a contended monitor). Event settings are JVM-wide: the user's own
 *                       recordings get these events too.
 * @param counting       count every contended j.u.c. lock acquisition through advice on
 *                       AbstractQueuedSynchronizer (option {@code probes.locks.counting}, default on)
 * @param maxRows        rows kept per table; events beyond are counted as dropped (default 1,000)
 */
public record LockProbeSettings(long thresholdNanos, boolean counting, int maxRows) {

    /** The defaults: 1 ms, counting on, 1,000 rows. */
    public static final LockProbeSettings DEFAULTS = new LockProbeSettings(1_000_000L, true, 1_000);

    /** Validates. */
    public LockProbeSettings {
        if (thresholdNanos < 0) {
            throw new IllegalArgumentException("thresholdNanos must be >= 0, got " + thresholdNanos);
        }
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be >= 1, got " + maxRows);
        }
    }
}
