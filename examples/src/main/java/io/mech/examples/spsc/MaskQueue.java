package io.mech.examples.spsc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Step 3: a power-of-two capacity, so the slot is an AND with a mask instead of a division. */
public final class MaskQueue<E> implements SpscQueue<E> {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(MaskQueue.class, "head", long.class);
            TAIL = lookup.findVarHandle(MaskQueue.class, "tail", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] buffer;
    private final int mask;
    volatile long head;
    volatile long tail;

    /** @param capacity the bound, a power of two */
    public MaskQueue(final int capacity) {
        this.mask = Rings.mask(capacity);
        this.buffer = new Object[capacity];
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
