package io.mech.examples.ipc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A single-producer single-consumer ring of longs laid out in shared memory (a region of a
 * memory-mapped file), so its two ends may live in two processes. The producer's index and the
 * consumer's index each sit on a 128-byte line of their own, then the slots follow:
 *
 * <pre>
 *   +0     producer index (elements ever offered)
 *   +128   consumer index (elements ever taken)
 *   +256   capacity slots of 8 bytes
 * </pre>
 *
 * <p>An index is published with a release store after the slot it covers was written (or read),
 * and read with an acquire load, which orders the slot access across processes the same way it
 * orders it across threads: both ends map the same physical pages. Each end keeps a plain copy of
 * the other's index and reads the shared one only when that copy says the ring is full (or empty),
 * so the two ends' lines stay in their own caches while the ring has room and work.
 *
 * <p>Threading: one thread (in either process) offers, one thread (in either process) polls, and
 * any thread may read the indices. The cached copies belong to the one thread of their end.
 */
public final class MappedRing {

    /** What {@link #poll()} answers for an empty ring; never offered. */
    public static final long EMPTY = Long.MIN_VALUE;

    private static final int LINE = 128;
    private static final int PRODUCER = 0;
    private static final int CONSUMER = LINE;
    private static final int SLOTS = 2 * LINE;
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    private final ByteBuffer memory;
    private final int base;
    private final int capacity;
    private final int mask;
    /** The producer's last sight of the consumer index: producer thread only. */
    private long consumerSeen;
    /** The consumer's last sight of the producer index: consumer thread only. */
    private long producerSeen;

    /**
     * @param memory   a direct buffer over the shared mapping, zeroed where the ring lies before either end uses it
     * @param base     where the ring starts in it, a multiple of 128
     * @param capacity slots, a power of two
     */
    public MappedRing(final ByteBuffer memory, final int base, final int capacity) {
        if (Integer.bitCount(capacity) != 1 || base % LINE != 0 || base + bytes(capacity) > memory.capacity()) {
            throw new IllegalArgumentException("ring of " + capacity + " at " + base + " does not fit a power of two into "
                + memory.capacity() + " bytes on a 128-byte boundary");
        }
        this.memory = memory;
        this.base = base;
        this.capacity = capacity;
        this.mask = capacity - 1;
    }

    /** @return the bytes a ring of this capacity takes, a multiple of 128 */
    public static int bytes(final int capacity) {
        return SLOTS + Math.max(LINE, capacity * Long.BYTES);
    }

    /** @return the number of slots */
    public int capacity() {
        return capacity;
    }

    /**
     * Producer end: appends a value unless the ring is full.
     *
     * @param value anything but {@link #EMPTY}
     * @return false when full
     */
    public boolean offer(final long value) {
        final long producer = (long) LONGS.getOpaque(memory, base + PRODUCER);
        if (producer - consumerSeen >= capacity) {
            consumerSeen = (long) LONGS.getAcquire(memory, base + CONSUMER);
            if (producer - consumerSeen >= capacity) {
                return false;
            }
        }
        LONGS.set(memory, slot(producer), value);
        LONGS.setRelease(memory, base + PRODUCER, producer + 1);
        return true;
    }

    /**
     * Consumer end: takes the oldest value.
     *
     * @return it, or {@link #EMPTY} when there is none
     */
    public long poll() {
        final long consumer = (long) LONGS.getOpaque(memory, base + CONSUMER);
        if (consumer >= producerSeen) {
            producerSeen = (long) LONGS.getAcquire(memory, base + PRODUCER);
            if (consumer >= producerSeen) {
                return EMPTY;
            }
        }
        final long value = (long) LONGS.get(memory, slot(consumer));
        LONGS.setRelease(memory, base + CONSUMER, consumer + 1);
        return value;
    }

    /** @return elements ever offered; any thread */
    public long producerIndex() {
        return (long) LONGS.getAcquire(memory, base + PRODUCER);
    }

    /** @return elements ever taken; any thread */
    public long consumerIndex() {
        return (long) LONGS.getAcquire(memory, base + CONSUMER);
    }

    private int slot(final long index) {
        return base + SLOTS + (int) (index & mask) * Long.BYTES;
    }
}
