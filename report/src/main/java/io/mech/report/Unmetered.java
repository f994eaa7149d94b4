package io.mech.report;

/**
 * What stopped the host before its hiccup meter began, in nanoseconds, as HotSpot's counters
 * tell it: time no histogram holds, which the report states beside the stalls the meter saw.
 *
 * @param vmMillis       how long the JVM had run when the meter began; -1 where unknown
 * @param safepoints     the safepoints before the meter
 * @param collections    the collections among them
 * @param gcNanos        the collections' pause time
 * @param safepointNanos the other VM operations' time at safepoints
 * @param ttspNanos      the time the safepoints waited for threads to arrive
 */
public record Unmetered(long vmMillis, long safepoints, long collections, long gcNanos, long safepointNanos, long ttspNanos) {

    /** Nothing known: no meter began, or it reads no counters. */
    public static final Unmetered NONE = new Unmetered(-1, 0, 0, 0, 0, 0);

    /** The time the host stood stopped before the meter: at safepoints and on the way to them. */
    public long stoppedNanos() {
        return gcNanos + safepointNanos + ttspNanos;
    }
}
