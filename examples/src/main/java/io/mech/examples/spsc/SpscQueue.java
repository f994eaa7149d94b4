package io.mech.examples.spsc;

/**
 * A bounded single-producer single-consumer queue. Exactly one thread may call {@link #offer}
 * and exactly one (other) thread may call {@link #poll}; under that rule every element offered
 * is polled once, in offer order.
 *
 * @param <E> element type
 */
public interface SpscQueue<E> {

    /**
     * @param element non-null element
     * @return false if the queue is full
     */
    boolean offer(E element);

    /** @return the oldest element, or null if the queue is empty */
    E poll();
}
