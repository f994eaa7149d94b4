package io.mech.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The one way mech's tests wait: on a condition, polled, within a bound, never for a fixed time.
 * A condition that does not come true fails the test with what was awaited, after how long.
 */
public final class Await {

    /** Between two looks: short against the bounds tests give, long enough not to compete with what is awaited. */
    private static final long POLL_MILLIS = 5;

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
    public static void until(final String what, final Duration within, final BooleanSupplier condition) throws InterruptedException {
        value(what, within, () -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }

    /**
     * Waits until the supplier gives a value.
     *
     * @param what     what is awaited, for the failure's message
     * @param within   how long at most
     * @param supplier looked at until it gives something other than null
     * @param <T>      the value's type
     * @return the first value it gave
     * @throws AssertionError when it gave none within the bound
     * @throws InterruptedException when the waiting thread is interrupted
     */
    public static <T> T value(final String what, final Duration within, final Supplier<T> supplier) throws InterruptedException {
        final long start = System.nanoTime();
        final long bound = within.toNanos();
        while (true) {
            final T value = supplier.get();
            if (value != null) {
                return value;
            }
            if (System.nanoTime() - start > bound) {
                throw new AssertionError("not within " + within.toMillis() + " ms: " + what);
            }
            Thread.sleep(POLL_MILLIS);
        }
    }
}
