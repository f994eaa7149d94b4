package io.mech.hiccup.cause;

/**
 * A stretch of time during which the JVM stopped its threads, as JFR reported it.
 *
 * @param startNanos epoch nanoseconds
 * @param endNanos   epoch nanoseconds
 * @param cause      GC, SAFEPOINT or MECH
 * @param detail     the collector and GC cause, or the VM operation
 */
public record PauseWindow(long startNanos, long endNanos, Cause cause, String detail) {

    /** How much of [start, end] this window covers, widened by slack on both sides. */
    long overlap(final long start, final long end, final long slack) {
        return Math.max(0, Math.min(end, endNanos + slack) - Math.max(start, startNanos - slack));
    }
}
