package io.mech.probes.queues;

import java.util.function.Consumer;

/**
 * Template of the bridge the queue probe's woven code calls. It is never loaded under this name:
 * {@link QueueWeaving} renames it into {@code java.util.concurrent} and defines it there, so that
 * code woven into the JDK's queues links to it; being public in an exported package, the
 * application's queue classes reach it too. It refers to nothing outside the boot class path.
 *
 * <p>Guarantees: {@link #dequeued} and {@link #offered} allocate nothing, take no lock and never
 * throw. A queue is counted only once mech has claimed a slot for it: {@link #owners()} holds the
 * identity hash of each slot's queue (0: free), looked up from the hash's home slot over
 * {@value #PROBES} slots. Each slot has {@value #STRIPES} stripes per direction; a thread counts
 * in the stripe its id selects, and every stripe is a cache line of its own, {@value #LINE} longs
 * (128 bytes) apart, so counters of different queues, and of threads on different stripes, share
 * no written line. Plain increments: exact where the queue's own lock serialises the path (the
 * JDK's blocking queues) or where at most {@value #STRIPES} threads with distinct stripes count
 * at once; two threads of one stripe racing may lose an update. Two queues with the same identity
 * hash (one pair in about two billion) would be counted together.
 */
public final class QueueBridge {

    /** Slots, a power of two: the most queues counted at once. */
    public static final int SLOTS = 256;
    /** Slots looked at from a hash's home slot. */
    public static final int PROBES = 8;
    /** Stripes per direction, a power of two. */
    public static final int STRIPES = 4;
    /** Longs per cache line and then some: 128 bytes, the adjacent-line prefetch pair. */
    public static final int LINE = 16;
    /** Longs per slot: dequeue stripes, then enqueue stripes. */
    public static final int SLOT_LONGS = 2 * STRIPES * LINE;

    /** Receives every queue whose constructor returned; set by mech, null when off. */
    public static volatile Consumer<Object> sink;

    private static final int[] OWNERS = new int[SLOTS];
    /** One line of padding before the first slot keeps the array header's line unwritten. */
    private static final long[] CELLS = new long[LINE + SLOTS * SLOT_LONGS];

    private QueueBridge() {
    }

    /**
     * Called when a queue's (or an executor's) constructor returns.
     *
     * @param queue the new instance; a chained constructor hands it over twice
     */
    public static void created(final Object queue) {
        final Consumer<Object> to = sink;
        if (to != null) {
            try {
                to.accept(queue);
            } catch (final Throwable ignored) {
                // mech never throws into the host's constructor
            }
        }
    }

    /**
     * Called as a dequeue path returns.
     *
     * @param result what it returned; null for nothing taken
     * @param queue  the queue
     */
    public static void dequeued(final Object result, final Object queue) {
        if (result != null) {
            count(queue, 0);
        }
    }

    /**
     * Called as an application queue's {@code offer(E)} returns.
     *
     * @param accepted what it returned
     * @param queue    the queue
     */
    public static void offered(final boolean accepted, final Object queue) {
        if (accepted) {
            count(queue, STRIPES * LINE);
        }
    }

    private static void count(final Object queue, final int direction) {
        final int hash = System.identityHashCode(queue);
        final int[] owners = OWNERS;
        for (int i = 0; i < PROBES; i++) {
            final int slot = (hash + i) & (SLOTS - 1);
            if (owners[slot] == hash) {
                @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
                final int stripe = (int) Thread.currentThread().getId() & (STRIPES - 1);
                CELLS[LINE + slot * SLOT_LONGS + direction + stripe * LINE]++;
                return;
            }
        }
    }

    /** @return the identity hash of each slot's queue, 0 for a free slot; mech claims and frees slots here */
    public static int[] owners() {
        return OWNERS;
    }

    /** @return the live counters, laid out as the constants above say */
    public static long[] cells() {
        return CELLS;
    }
}
