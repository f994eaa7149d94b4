package io.mech.examples.spsc;

import java.util.concurrent.ArrayBlockingQueue;

/** The baseline: ArrayBlockingQueue, one lock shared by both ends. */
public final class BlockingQueueAdapter<E> implements SpscQueue<E> {
    private final ArrayBlockingQueue<E> queue;

    /** @param capacity the bound */
    public BlockingQueueAdapter(final int capacity) {
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    @Override
    public boolean offer(final E element) {
        return queue.offer(element);
    }

    @Override
    public E poll() {
        return queue.poll();
    }
}
