package io.mech.hiccup;

import java.time.Instant;

/**
 * Converts the meter's System.nanoTime() readings to epoch nanoseconds, the time base of JFR's
 * events. The offset is re-measured on every {@link #calibrate()}, bracketing the wall-clock
 * read between two nanoTime reads and keeping the tightest of a few tries.
 */
public final class EpochClock {

    private long offsetNanos;

    /** Measures the offset once. */
    public EpochClock() {
        calibrate();
    }

    /** Measures the offset again, for a wall clock that NTP has moved. */
    public void calibrate() {
        long bestSpread = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            final long before = System.nanoTime();
            final Instant now = Instant.now();
            final long after = System.nanoTime();
            if (after - before < bestSpread) {
                bestSpread = after - before;
                offsetNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano() - (before + after) / 2;
            }
        }
    }

    /** A System.nanoTime() reading as epoch nanoseconds. */
    public long epochNanos(final long nanoTime) {
        return nanoTime + offsetNanos;
    }

    /** Now, in epoch nanoseconds. */
    public long nowEpochNanos() {
        return epochNanos(System.nanoTime());
    }
}
