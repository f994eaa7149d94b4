package io.mech.hiccup;

/** Cold state of {@link StallQueue}: the ring itself, written only at construction. */
abstract class StallQueueColdFields {
    /** Capacity minus one; the capacity is a power of two. */
    protected final int mask;
    /** Stall ends, System.nanoTime() at wake-up. */
    protected final long[] ends;
    /** Stall lengths in nanoseconds. */
    protected final long[] lengths;
    /** How many evidence values each stall carries. */
    protected final int width;
    /** Each stall's evidence, {@link #width} values a slot. */
    protected final long[] evidence;

    StallQueueColdFields(final int capacity, final int width) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, got " + capacity);
        }
        this.mask = capacity - 1;
        this.ends = new long[capacity];
        this.lengths = new long[capacity];
        this.width = width;
        this.evidence = new long[capacity * width];
    }
}

/** Keeps the producer's index off the cache lines of the cold fields. */
abstract class StallQueueL1Pad extends StallQueueColdFields {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    StallQueueL1Pad(final int capacity, final int width) {
        super(capacity, width);
    }
}

/** The producer's index, written only by the meter thread. */
abstract class StallQueueProducerFields extends StallQueueL1Pad {
    protected volatile long tail;
    /** Stalls dropped because the consumer fell a whole ring behind. */
    protected volatile long dropped;
    /** Their lengths in all, in nanoseconds. */
    protected volatile long droppedNanos;
    /** The longest of them, in nanoseconds. */
    protected volatile long longestDropped;

    StallQueueProducerFields(final int capacity, final int width) {
        super(capacity, width);
    }
}

/** Keeps the producer's and the consumer's indices on separate cache lines. */
abstract class StallQueueL2Pad extends StallQueueProducerFields {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35;

    StallQueueL2Pad(final int capacity, final int width) {
        super(capacity, width);
    }
}

/** The consumer's index, written only by the thread that attributes stalls. */
abstract class StallQueueConsumerFields extends StallQueueL2Pad {
    protected volatile long head;

    StallQueueConsumerFields(final int capacity, final int width) {
        super(capacity, width);
    }
}

/** Keeps the consumer's index off whatever the allocator places next. */
abstract class StallQueueL3Pad extends StallQueueConsumerFields {
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55;

    StallQueueL3Pad(final int capacity, final int width) {
        super(capacity, width);
    }
}

/**
 * The stalls the meter sees, handed to whoever attributes them: a single-producer,
 * single-consumer ring of primitives, each stall its end, its length and a fixed number of
 * evidence values (what HotSpot's counters moved by across it, see {@link VmCounters}, then what
 * the kernel's figures say of it, see {@link KernelFigures}).
 *
 * <p>Guarantees: {@link #offer} is called by the meter thread only and allocates nothing; when
 * the ring is full it drops the stall and counts it, so the meter never waits. {@link #poll} is
 * called by one consumer at a time: a consumer that polls from more than one thread (the causes
 * drain theirs from the attributing thread, the log thread and mech's stop) must serialise its
 * polls under one lock of its own, and the lock's release and acquire then also publish the
 * consumer's index from one polling thread to the next. The indices are volatile, each written by one side only:
 * stalls are rare, so a volatile store's fence costs nothing that matters, and unlike a
 * VarHandle it needs no linking on first use. Producer and consumer state sit on separate cache
 * lines (128-byte pads).
 */
public final class StallQueue extends StallQueueL3Pad {

    /** Receives one stall from {@link #poll}. */
    @FunctionalInterface
    public interface StallHandler {
        /**
         * @param endNanos    System.nanoTime() when the meter woke
         * @param lengthNanos how long the stall was
         * @param evidence    the queue's evidence array: this stall's values are {@link #width()}
         *                    of them from {@code at}, to be read before the call returns
         * @param at          the first of this stall's evidence values
         */
        void onStall(long endNanos, long lengthNanos, long[] evidence, int at);
    }

    /**
     * @param capacity how many stalls may wait, a power of two
     * @param width    how many evidence values each stall carries, 0 for none
     */
    public StallQueue(final int capacity, final int width) {
        super(capacity, width);
    }

    /** @param capacity how many stalls may wait, a power of two; the stalls carry no evidence */
    public StallQueue(final int capacity) {
        this(capacity, 0);
    }

    /** How many evidence values each stall carries. */
    public int width() {
        return width;
    }

    /** Adds a stall without evidence; meter thread only. */
    void offer(final long endNanos, final long lengthNanos) {
        offer(endNanos, lengthNanos, null, 0, null, 0);
    }

    /**
     * Adds a stall whose evidence is {@code after - before}, slot by slot over {@link #width()}
     * slots (zeros when {@code after} is null); meter thread only.
     */
    void offer(final long endNanos, final long lengthNanos, final long[] after, final int afterAt, final long[] before,
               final int beforeAt) {
        final long t = tail;
        if (t - head > mask) {
            droppedNanos += lengthNanos;
            longestDropped = Math.max(longestDropped, lengthNanos);
            dropped++;
            return;
        }
        final int slot = (int) t & mask;
        ends[slot] = endNanos;
        lengths[slot] = lengthNanos;
        final int base = slot * width;
        for (int i = 0; i < width; i++) {
            evidence[base + i] = after == null ? 0 : after[afterAt + i] - before[beforeAt + i];
        }
        tail = t + 1;
    }

    /**
     * Hands every waiting stall to the handler, oldest first; consumer thread only. Each stall
     * leaves the queue once the handler has returned: a handler that throws (a full heap) is
     * handed the same stall again at the next poll, and none before it twice.
     *
     * @return how many stalls were handed over
     */
    public int poll(final StallHandler handler) {
        final long h = head;
        final long t = tail;
        for (long i = h; i < t; i++) {
            final int slot = (int) i & mask;
            handler.onStall(ends[slot], lengths[slot], evidence, slot * width);
            head = i + 1;
        }
        return (int) (t - h);
    }

    /** Stalls dropped because nobody took them in time. */
    public long dropped() {
        return dropped;
    }

    /** The dropped stalls' lengths in all, in nanoseconds; read after {@link #dropped()}, it covers at least those. */
    public long droppedNanos() {
        return droppedNanos;
    }

    /** The longest dropped stall, in nanoseconds. */
    public long longestDropped() {
        return longestDropped;
    }
}
