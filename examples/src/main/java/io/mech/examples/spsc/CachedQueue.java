package io.mech.examples.spsc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Read-only after construction: shared by both threads, written by neither. */
abstract class CachedQueueColdFields {
    final Object[] buffer;
    final int mask;

    CachedQueueColdFields(final int capacity) {
        this.mask = Rings.mask(capacity);
        this.buffer = new Object[capacity];
    }
}

/** Keeps the producer's fields off the line holding the cold fields and the object header. */
abstract class CachedQueuePad1 extends CachedQueueColdFields {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    CachedQueuePad1(final int capacity) {
        super(capacity);
    }
}

/** The producer's line: its tail and its private copy of the consumer's head. */
abstract class CachedQueueProducerFields extends CachedQueuePad1 {
    volatile long tail;
    long headCache;

    CachedQueueProducerFields(final int capacity) {
        super(capacity);
    }
}

/** Keeps the producer's line and the consumer's line 128 bytes apart. */
abstract class CachedQueuePad2 extends CachedQueueProducerFields {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;

    CachedQueuePad2(final int capacity) {
        super(capacity);
    }
}

/** The consumer's line: its head and its private copy of the producer's tail. */
abstract class CachedQueueConsumerFields extends CachedQueuePad2 {
    volatile long head;
    long tailCache;

    CachedQueueConsumerFields(final int capacity) {
        super(capacity);
    }
}

/** Keeps the consumer's line off whatever is allocated next. */
abstract class CachedQueuePad3 extends CachedQueueConsumerFields {
    long r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15;

    CachedQueuePad3(final int capacity) {
        super(capacity);
    }
}

/**
 * Step 5: each side keeps a stale copy of the other's index and rereads the real one only when
 * the copy says full (producer) or empty (consumer), so the index lines move once per lap, not
 * once per element.
 */
public final class CachedQueue<E> extends CachedQueuePad3 implements SpscQueue<E> {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(CachedQueueConsumerFields.class, "head", long.class);
            TAIL = lookup.findVarHandle(CachedQueueProducerFields.class, "tail", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** @param capacity the bound, a power of two */
    public CachedQueue(final int capacity) {
        super(capacity);
    }

    @Override
    public boolean offer(final E element) {
        final long t = (long) TAIL.getOpaque(this);
        if (t - headCache > mask) {
            headCache = head;
            if (t - headCache > mask) {
                return false;
            }
        }
        buffer[(int) t & mask] = element;
        TAIL.setRelease(this, t + 1);
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        final long h = (long) HEAD.getOpaque(this);
        if (h == tailCache) {
            tailCache = tail;
            if (h == tailCache) {
                return null;
            }
        }
        final int slot = (int) h & mask;
        final E element = (E) buffer[slot];
        buffer[slot] = null;
        HEAD.setRelease(this, h + 1);
        return element;
    }
}
