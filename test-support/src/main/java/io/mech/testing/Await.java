package io.mech.testing;

import java.time.Duration;

/**
 * The one way mech's tests wait: on a condition, polled, within a bound, never for a fixed time.
 * A condition that does not come true fails the test with what was awaited, after how long. A
 * look that throws an exception (a log still being written, a file not there yet) found nothing
 * yet; the last such exception is the failure's cause. An {@link Error} thrown by a look, an
 * assertion's for one, ends the wait at once.
 */
public final class Await {

    /** Between two cheap looks: short against the bounds tests give, long enough not to compete with what is awaited. */
    private static final Duration CHEAP = Duration.ofMillis(5);

    /** A condition looked at until it holds. */
    @FunctionalInterface
    public interface Condition {
        /**
         * @return whether it holds
         * @throws Exception when it cannot tell yet
         */
        boolean holds() throws Exception;
    }

    /**
     * A value looked for until there is one.
     *
     * @param <T> its type
     */
    @FunctionalInterface
    public interface Look<T> {
        /**
         * @return the value, or null when there is none yet
         * @throws Exception when it cannot tell yet
         */
        T look() throws Exception;
    }

    private Await() {
    }

    /**
     * Waits until the condition holds.
     *
     * @param what      what is awaited, for the failure's message
     * @param within    how long at most
     * @param condition looked at until it holds
     * @throws AssertionError when it did not hold within the bound
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public static void until(final String what, final Duration within, final Condition condition) throws InterruptedException {
        value(what, within, CHEAP, () -> condition.holds() ? Boolean.TRUE : null);
    }

    /**
     * Waits until the condition holds, looking once every {@code every} at most: for a look that
     * costs the machine what the awaited work needs (a {@code jcmd}, which starts a JVM; a scrape;
     * a query to Prometheus).
     *
     * @param what      what is awaited, for the failure's message
     * @param within    how long at most
     * @param every     the pause between two looks
     * @param condition looked at until it holds
     * @throws AssertionError when it did not hold within the bound
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public static void until(final String what, final Duration within, final Duration every, final Condition condition)
        throws InterruptedException {
        value(what, within, every, () -> condition.holds() ? Boolean.TRUE : null);
    }

    /**
     * Waits until a look gives a value.
     *
     * @param what   what is awaited, for the failure's message
     * @param within how long at most
     * @param look   looked at until it gives something other than null
     * @param <T>    the value's type
     * @return the first value it gave
     * @throws AssertionError when it gave none within the bound
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public static <T> T value(final String what, final Duration within, final Look<T> look) throws InterruptedException {
        return value(what, within, CHEAP, look);
    }

    /**
     * Waits until a look gives a value, looking once every {@code every} at most: for a costly look,
     * as {@link #until(String, Duration, Duration, Condition)}.
     *
     * @param what   what is awaited, for the failure's message
     * @param within how long at most
     * @param every  the pause between two looks
     * @param look   looked at until it gives something other than null
     * @param <T>    the value's type
     * @return the first value it gave
     * @throws AssertionError when it gave none within the bound
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public static <T> T value(final String what, final Duration within, final Duration every, final Look<T> look)
        throws InterruptedException {
        final long start = System.nanoTime();
        final long bound = within.toNanos();
        Exception last = null;
        while (true) {
            try {
                final T value = look.look();
                if (value != null) {
                    return value;
                }
            } catch (final InterruptedException e) {
                throw e;
            } catch (final Exception notYet) {
                last = notYet;
            }
            if (System.nanoTime() - start > bound) {
                throw new AssertionError("not within " + within.toMillis() + " ms: " + what, last);
            }
            Thread.sleep(every.toMillis());
        }
    }
}
