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
 *       lock probe's weaving under a full heap; JDK 21, the same weaving in the 0.3 s a host that
 *       filled its heap from its first line let go of it, with room when it began): so a
 *       retransformation waits for a calm heap too ({@link #awaitCalm}).</li>
 * </ul>
 *
 * <p>Room is {@link #ROOM_BYTES}, or an eighth of the heap when that is less, to spare; what counts
 * as free includes garbage not yet collected, so a heap that is only full of garbage has room
 * after its next collection. Waits back off from 10 ms to 1 s. Allocates nothing: it runs where
 * the heap is full. Any thread may wait; the class is loaded with mech, where the heap has room.
 */
final class HeapRoom {

    static final long ROOM_BYTES = 16L << 20;
    /**
     * How long a heap once seen full must have had room, at every look, before it is calm: longer
     * than the breaths of a host that fills its heap again and again (a server shedding load
     * under pressure), short beside a weaving's wait for its class's first use.
     */
    static final long CALM_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** The time between two looks while waiting for calm: several fit in a host's breath. */
    static final long CALM_LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /**
     * The longest wait for calm, room alone after it: a host that runs near its heap's limit, live
     * data and garbage within an eighth of it, may be seen without room at every other look for
     * as long as it runs, and must not go without JFR, the probes and their weaving for that long.
     */
    static final long CALM_PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** The first wait, doubled at each {@link #backOff} up to {@link #LAST_BACKOFF_NANOS}. */
    static final long FIRST_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long LAST_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** System.nanoTime() of the last look that found no room; 0 while none has. Any thread writes it, each with its own look's time. */
    private static volatile long lastFullNanos;

    private HeapRoom() {
    }

    /** @return whether the heap has room now */
    static boolean now() {
        final Runtime runtime = Runtime.getRuntime();
        final long max = runtime.maxMemory();
        final boolean room = max - (runtime.totalMemory() - runtime.freeMemory()) >= Math.min(ROOM_BYTES, max / 8);
        if (!room) {
            lastFullNanos = System.nanoTime();
        }
        return room;
    }

    /** @return whether the heap has room now and, if a look ever found it full, has had room at every look for {@link #CALM_NANOS} */
    private static boolean calm() {
        final boolean room = now();
        final long full = lastFullNanos;
        return room && (full == 0 || System.nanoTime() - full >= CALM_NANOS);
    }

    /**
     * Waits until the heap has room and, if it was ever seen full, has had room at every look for
     * {@link #CALM_NANOS}; once {@code roomWillDo} says so, or after {@link #CALM_PATIENCE_NANOS},
     * for room alone, as {@link #await} does.
     *
     * @param roomWillDo asked at each look; made before the heap may be full
     * @param giveUp     as {@link #await}'s, asked at each look too
     * @return the nanoseconds waited
     */
    static long awaitCalm(final BooleanSupplier roomWillDo, final BooleanSupplier giveUp) {
        final long began = System.nanoTime();
        while (!roomWillDo.getAsBoolean() && !giveUp.getAsBoolean() && System.nanoTime() - began < CALM_PATIENCE_NANOS) {
            if (calm()) {
                return System.nanoTime() - began;
            }
            LockSupport.parkNanos(CALM_LOOK_NANOS);
        }
        return System.nanoTime() - began + await(giveUp);
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
