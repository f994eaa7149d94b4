package io.mech.examples.spsc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Read-only after construction: shared by both threads, written by neither. */
abstract class PaddedQueueColdFields {
    final Object[] buffer;
    final int mask;

    PaddedQueueColdFields(final int capacity) {
        this.mask = Rings.mask(capacity);
        this.buffer = new Object[capacity];
    }
}

/** Keeps the producer's tail off the line holding the cold fields and the object header. */
abstract class PaddedQueuePad1 extends PaddedQueueColdFields {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    PaddedQueuePad1(final int capacity) {
        super(capacity);
    }
}

/** Written by the producer only. */
abstract class PaddedQueueTail extends PaddedQueuePad1 {
    volatile long tail;

    PaddedQueueTail(final int capacity) {
        super(capacity);
    }
}

/** Keeps the producer's tail and the consumer's head 128 bytes apart. */
abstract class PaddedQueuePad2 extends PaddedQueueTail {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;

    PaddedQueuePad2(final int capacity) {
        super(capacity);
    }
}

/** Written by the consumer only. */
abstract class PaddedQueueHead extends PaddedQueuePad2 {
    volatile long head;

    PaddedQueueHead(final int capacity) {
        super(capacity);
    }
}

/** Keeps the consumer's head off whatever is allocated next. */
abstract class PaddedQueuePad3 extends PaddedQueueHead {
    long r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15;

    PaddedQueuePad3(final int capacity) {
        super(capacity);
    }
}

/**
 * Step 4: head and tail on lines of their own, so a write to one no longer invalidates the
 * other. Each still reads the other's index on every call: that line still moves.
 */
public final class PaddedQueue<E> extends PaddedQueuePad3 implements SpscQueue<E> {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(PaddedQueueHead.class, "head", long.class);
            TAIL = lookup.findVarHandle(PaddedQueueTail.class, "tail", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @param capacity the bound, a power of two */
    public PaddedQueue(final int capacity) {
        super(capacity);
    }

    @Override
    public boolean offer(final E element) {
        final long t = (long) TAIL.getOpaque(this);
        if (t - head > mask) {
            return false;
        }
        buffer[(int) t & mask] = element;
        TAIL.setRelease(this, t + 1);
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        final long h = (long) HEAD.getOpaque(this);
        if (h == tail) {
            return null;
        }
        final int slot = (int) h & mask;
        final E element = (E) buffer[slot];
        buffer[slot] = null;
        HEAD.setRelease(this, h + 1);
        return element;
    }
}
