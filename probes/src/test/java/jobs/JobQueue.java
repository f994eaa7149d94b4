package jobs;

import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server's job queue as Jetty's is made: a blocking queue in a package no include names, whose
 * {@code size()} reads an atomic, taken from by timed polls and {@code take}, and emptied of one
 * job now and then by {@code remove(Object)}, which no counting sees. Not a real blocking queue
 * (it spins rather than parks): the probe's test needs its shape, not its waits.
 */
public final class JobQueue<E> extends AbstractQueue<E> implements BlockingQueue<E> {
    private final ConcurrentLinkedQueue<E> items = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();

    @Override
    public boolean offer(final E e) {
        items.add(e);
        size.incrementAndGet();
        return true;
    }

    @Override
    public boolean offer(final E e, final long timeout, final TimeUnit unit) {
        return offer(e);
    }

    @Override
    public void put(final E e) {
        offer(e);
    }

    @Override
    public E poll() {
        final E e = items.poll();
        if (e != null) {
            size.decrementAndGet();
        }
        return e;
    }

    @Override
    public E poll(final long timeout, final TimeUnit unit) {
        final long end = System.nanoTime() + unit.toNanos(timeout);
        E e;
        while ((e = items.poll()) == null && System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        if (e != null) {
            size.decrementAndGet();
        }
        return e;
    }

    @Override
    public E take() {
        E e;
        while ((e = items.poll()) == null) {
            Thread.onSpinWait();
        }
        size.decrementAndGet();
        return e;
    }

    @Override
    public boolean remove(final Object o) {
        if (items.remove(o)) {
            size.decrementAndGet();
            return true;
        }
        return false;
    }

    @Override
    public E peek() {
        return items.peek();
    }

    @Override
    public int size() {
        return size.get();
    }

    @Override
    public int remainingCapacity() {
        return Integer.MAX_VALUE;
    }

    @Override
    public int drainTo(final Collection<? super E> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(final Collection<? super E> c, final int most) {
        throw new UnsupportedOperationException();
    }

    @Override
    public Iterator<E> iterator() {
        throw new UnsupportedOperationException();
    }
}
