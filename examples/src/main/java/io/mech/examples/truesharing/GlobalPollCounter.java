package io.mech.examples.truesharing;

/**
 * The defect, as JRuby once shipped it: one static counter bumped by every thread on every call
 * and checked every 256 increments to decide when to poll. The racy read-increment-write loses
 * updates, which the poll does not care about; the line it drags between cores is the cost.
 */
public final class GlobalPollCounter {
    static volatile long counter;

    private GlobalPollCounter() {
    }

    /** Zeroes the counter before a run. */
    public static void reset() {
        counter = 0;
    }

    /**
     * Counts one call.
     *
     * @return whether this call is due to poll
     */
    public static boolean tick() {
        final long next = counter + 1;
        counter = next;
        return (next & 0xFF) == 0;
    }

    /** @return the counter's value: at most the number of ticks, less by the lost updates */
    public static long value() {
        return counter;
    }
}
