package io.mech.examples.spsc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Step 2: indices published with a release store (lazySet) instead of a volatile store. A
 * single writer needs only ordering, not the StoreLoad fence a volatile store pays for.
 */
public final class LazySetQueue<E> implements SpscQueue<E> {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(LazySetQueue.class, "head", long.class);
            TAIL = lookup.findVarHandle(LazySetQueue.class, "tail", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] buffer;
    private final int capacity;
    volatile long head;
    volatile long tail;

    /** @param capacity the bound, any positive size */
    public LazySetQueue(final int capacity) {
        this.capacity = capacity;
        this.buffer = new Object[capacity];
    }

    @Override
    public boolean offer(final E element) {
        final long t = (long) TAIL.getOpaque(this);
        if (t - head == capacity) {
            return false;
        }
        buffer[(int) (t % capacity)] = element;
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
        final int slot = (int) (h % capacity);
        final E element = (E) buffer[slot];
        buffer[slot] = null;
        HEAD.setRelease(this, h + 1);
        return element;
    }
}
