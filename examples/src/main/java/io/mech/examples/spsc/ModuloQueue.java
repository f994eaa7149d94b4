package io.mech.examples.spsc;

/**
 * Step 1: a ring with volatile head and tail, slots found by {@code %}. Each index is written
 * by one thread only, so plain increments are safe; every write is a full volatile store.
 */
public final class ModuloQueue<E> implements SpscQueue<E> {
    private final Object[] buffer;
    private final int capacity;
    volatile long head;
    volatile long tail;

    /** @param capacity the bound, any positive size */
    public ModuloQueue(final int capacity) {
        this.capacity = capacity;
        this.buffer = new Object[capacity];
    }

    @Override
    public boolean offer(final E element) {
        final long t = tail;
        if (t - head == capacity) {
            return false;
        }
        buffer[(int) (t % capacity)] = element;
        tail = t + 1;
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        final long h = head;
        if (h == tail) {
            return null;
        }
        final int slot = (int) (h % capacity);
        final E element = (E) buffer[slot];
        buffer[slot] = null;
        head = h + 1;
        return element;
    }
}
