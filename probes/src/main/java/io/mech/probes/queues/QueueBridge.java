package io.mech.probes.queues;

import java.util.function.ToIntFunction;

/**
 * Template of the bridge the queue probe's woven code calls. It is never loaded under this name:
 * {@link QueueWeaving} renames it into {@code java.util.concurrent} and defines it there, so that
 * code woven into the JDK's queues links to it; being public in an exported package, the
 * application's queue classes reach it too. It refers to nothing outside the boot class path.
 *
 * <p>Guarantees: {@link #dequeuedAt}, {@link #dequeuedLockedAt}, {@link #offeredAt} and {@link #enqueuedAt} allocate nothing, take no lock and never
 * throw. A queue is counted only once mech has claimed a slot for it. A queue class loaded while
 * the probe runs (an application's, or one of the JDK's when the agent starts before the class
 * loads) carries its slot in a field of its own ({@link SlotField}), handed in as a tag
 * ({@link #registered}); any other queue is found by identity hash: {@link #owners()}
 * holds the hash of each slot's queue (0: free), looked up from the hash's home slot over
 * {@value #PROBES} slots. The hash costs about a nanosecond more per call, and far more on a
 * queue locked with {@code synchronized} where the JVM keeps the hash outside the object header
 * while it is locked (about 13 ns on JDK 17). Each slot has {@value #STRIPES} stripes per direction; a thread counts
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

    /** Bits of a tag below the epoch: the slot plus one. */
    private static final int EPOCH_SHIFT = 16;

    /** Receives every queue whose constructor returned and gives its slot, -1 for none; null when off. */
    private static volatile ToIntFunction<Object> sink;
    /**
     * Counts the sinks opened, never 0 (the tag of a queue with no slot), so that a tag a closed
     * probe handed out is never taken for a slot of the next one's. Plain, not volatile: a volatile
     * load would cost each count as much as the rest of it (it stops the JIT keeping the queue's own
     * fields in registers across the call; 0.7 ns per call measured), and the epoch changes only
     * between two probes, when every woven class is retransformed and the code inlining it is thrown away.
     */
    private static int epoch = 1;

    private static final int[] OWNERS = new int[SLOTS];
    /** One line of padding before the first slot keeps the array header's line unwritten. */
    private static final long[] CELLS = new long[LINE + SLOTS * SLOT_LONGS];

    private QueueBridge() {
    }

    /**
     * Starts handing new queues to a sink, and starts a new epoch of tags.
     *
     * @param to receives each new queue and gives its slot, -1 when it is not counted; null stops
     */
    public static synchronized void open(final ToIntFunction<Object> to) {
        if (to != null) {
            epoch = epoch % ((1 << (Integer.SIZE - 1 - EPOCH_SHIFT)) - 1) + 1;
        }
        sink = to;
    }

    /**
     * Called when a constructor returns where there is no slot field to keep a tag in: an
     * executor's, or one of a queue class loaded before the probe.
     *
     * @param queue the new instance; a chained constructor hands it over twice
     */
    public static void created(final Object queue) {
        registered(queue);
    }

    /**
     * Called when the constructor of a queue class with the slot field returns; the woven code
     * keeps the tag in that field and hands it to the counting calls.
     *
     * @param queue the new instance; a chained constructor hands it over twice
     * @return the tag of the queue's slot, 0 when it is not counted
     */
    public static int registered(final Object queue) {
        final ToIntFunction<Object> to = sink;
        if (to != null) {
            try {
                final int slot = to.applyAsInt(queue);
                return slot < 0 ? 0 : epoch << EPOCH_SHIFT | slot + 1;
            } catch (final Throwable ignored) {
                // mech never throws into the host's constructor
            }
        }
        return 0;
    }

    /**
     * Called as a dequeue path returns: an application queue's {@code poll()}, or the JDK queue's
     * method every removal goes through.
     *
     * @param result what it returned; null for nothing taken
     * @param queue  the queue
     * @param tag    its slot field: what {@link #registered} gave, 0 when the class has no such field
     */
    public static void dequeuedAt(final Object result, final Object queue, final int tag) {
        if (result != null) {
            count(queue, tag, 0);
        }
    }

    /**
     * Called as a dequeue path returns that the queue's own lock serialises: counts into the
     * first stripe alone, without reading the current thread, exact because one thread at a time
     * gets here. Saves a few tenths of a nanosecond on the fastest hand-offs, where an item takes
     * about a hundred.
     *
     * @param result what it returned; null for nothing taken
     * @param queue  the queue
     * @param tag    as for {@link #dequeuedAt}
     */
    public static void dequeuedLockedAt(final Object result, final Object queue, final int tag) {
        if (result != null) {
            final int slot = slotOf(queue, tag);
            if (slot >= 0) {
                CELLS[LINE + slot * SLOT_LONGS]++;
            }
        }
    }

    /**
     * Called as an application queue's {@code offer(E)} returns.
     *
     * @param accepted what it returned
     * @param queue    the queue
     * @param tag      as for {@link #dequeuedAt}
     */
    public static void offeredAt(final boolean accepted, final Object queue, final int tag) {
        if (accepted) {
            count(queue, tag, STRIPES * LINE);
        }
    }

    /**
     * Called as an application queue's {@code put(E)} returns, which returns nothing: it enqueued.
     *
     * @param queue the queue
     * @param tag   as for {@link #dequeuedAt}
     */
    public static void enqueuedAt(final Object queue, final int tag) {
        count(queue, tag, STRIPES * LINE);
    }

    /** @return the slot a tag of this epoch names, else the one the queue's identity hash finds, -1 for none */
    private static int slotOf(final Object queue, final int tag) {
        if (tag >>> EPOCH_SHIFT == epoch) {
            return (tag & (1 << EPOCH_SHIFT) - 1) - 1;
        }
        final int hash = System.identityHashCode(queue);
        final int[] owners = OWNERS;
        for (int i = 0; i < PROBES; i++) {
            final int slot = (hash + i) & (SLOTS - 1);
            if (owners[slot] == hash) {
                return slot;
            }
        }
        return -1;
    }

    /** Counts in the queue's slot, in the stripe of the current thread. */
    private static void count(final Object queue, final int tag, final int direction) {
        final int slot = slotOf(queue, tag);
        if (slot >= 0) {
            @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
            final int stripe = (int) Thread.currentThread().getId() & (STRIPES - 1);
            CELLS[LINE + slot * SLOT_LONGS + direction + stripe * LINE]++;
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
