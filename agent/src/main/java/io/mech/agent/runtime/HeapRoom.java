package io.mech.agent.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for room in the host's heap before what mech must not do in a full one:
 *
 * <ul>
 *   <li>load and start its parts' code: a class whose initialisation meets a full heap stays
 *       broken for the JVM's life ({@code ExceptionInInitializerError}, then
 *       {@code NoClassDefFoundError}); with HdrHistogram's one way, a host that filled its heap
 *       from main's first line had no recorder for its whole run;</li>
 *   <li>retransform or redefine classes: when the JVM cannot allocate the exception that reports
 *       a failed retransformation, the JDK's instrument library fails an assertion ({@code
 *       !errorOutstanding}) and the VM crashed with SIGSEGV in {@code jni_Throw} (JDK 17, the
 *       lock probe's weaving under a full heap).</li>
 * </ul>
 *
 * <p>Room is {@link #ROOM_BYTES}, or an eighth of the heap when that is less, to spare; what counts
 * as free includes garbage not yet collected, so a heap that is only full of garbage has room
 * after its next collection. Waits back off from 10 ms to 1 s. Allocates nothing: it runs where
 * the heap is full. Any thread may wait; the class is loaded with mech, where the heap has room.
 */
final class HeapRoom {

    static final long ROOM_BYTES = 16L << 20;
    /** The first wait, doubled at each {@link #backOff} up to {@link #LAST_BACKOFF_NANOS}. */
    static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long LAST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    private HeapRoom() {
    }

    /** @return whether the heap has room now */
    static boolean now() {
        final Runtime runtime = Runtime.getRuntime();
        final long max = runtime.maxMemory();
        return max - (runtime.totalMemory() - runtime.freeMemory()) >= Math.min(ROOM_BYTES, max / 8);
    }

    /**
     * Waits until the heap has room or {@code giveUp} says to stop.
     *
     * @param giveUp asked after each wait; made before the heap may be full
     * @return the nanoseconds waited, 0 when there was room at once
     */
    static long await(final BooleanSupplier giveUp) {
        long waited = 0;
        long backoff = FIRST_BACKOFF_NANOS;
        while (!now() && !giveUp.getAsBoolean()) {
            final long parked = System.nanoTime();
            backoff = backOff(backoff);
            waited += System.nanoTime() - parked;
        }
        return waited;
    }

    /**
     * Parks for one backoff, allocating nothing.
     *
     * @param backoff nanoseconds to park, {@link #FIRST_BACKOFF_NANOS} the first time
     * @return the next backoff: twice this one, 1 s at most
     */
    static long backOff(final long backoff) {
        LockSupport.parkNanos(backoff);
        return Math.min(2 * backoff, LAST_BACKOFF_NANOS);
    }
}
