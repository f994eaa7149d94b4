package io.mech.examples.ipc;

import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.QueueProgressIndicators;

/**
 * The producer's end of a {@link MappedRing} whose consumer runs in another process, as a
 * {@link BlockingQueue}. It answers about the whole queue honestly, as JCTools' queues do: its
 * producer and consumer indices ({@link QueueProgressIndicators}) and its size are read from the
 * shared memory, so they count what the other process took; its bound is the ring's. A tool that
 * counted this process's offers and polls would see a queue that only ever grows.
 *
 * <p>Taking is the other process's business: the consumer-side methods ({@code poll}, {@code peek},
 * {@code take}, {@code drainTo}, iteration) throw {@link UnsupportedOperationException}. The hot
 * path is {@link #offer(long)}, which boxes nothing.
 *
 * <p>Threading: one producer thread offers; size, capacity and the indices may be read from any thread.
 */
public final class MappedQueue extends AbstractQueue<Long> implements BlockingQueue<Long>, QueueProgressIndicators {

    private static final long FULL_PARK_NANOS = 50_000;

    private final MappedRing ring;

    /** @param ring the ring whose producer end this is */
    public MappedQueue(final MappedRing ring) {
        this.ring = ring;
    }

    /**
     * Appends a value unless the ring is full, without boxing.
     *
     * @param value anything but {@link MappedRing#EMPTY}
     * @return false when full
     */
    public boolean offer(final long value) {
        return ring.offer(value);
    }

    @Override
    public boolean offer(final Long value) {
        return ring.offer(value);
    }

    @Override
    public void put(final Long value) throws InterruptedException {
        while (!ring.offer(value)) {
            parkWhileFull();
        }
    }

    @Override
    public boolean offer(final Long value, final long timeout, final TimeUnit unit) throws InterruptedException {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!ring.offer(value)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            parkWhileFull();
        }
        return true;
    }

    private static void parkWhileFull() throws InterruptedException {
        LockSupport.parkNanos(FULL_PARK_NANOS);
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    /** @return elements in the ring now, as both processes left it: offered here minus taken there */
    @Override
    public int size() {
        final long consumer = ring.consumerIndex();
        return (int) Math.max(0, Math.min(ring.capacity(), ring.producerIndex() - consumer));
    }

    @Override
    public int remainingCapacity() {
        return ring.capacity() - size();
    }

    @Override
    public long currentProducerIndex() {
        return ring.producerIndex();
    }

    @Override
    public long currentConsumerIndex() {
        return ring.consumerIndex();
    }

    @Override
    public Long poll() {
        throw consumersEnd();
    }

    @Override
    public Long peek() {
        throw consumersEnd();
    }

    @Override
    public Long take() {
        throw consumersEnd();
    }

    @Override
    public Long poll(final long timeout, final TimeUnit unit) {
        throw consumersEnd();
    }

    @Override
    public int drainTo(final Collection<? super Long> sink) {
        throw consumersEnd();
    }

    @Override
    public int drainTo(final Collection<? super Long> sink, final int maxElements) {
        throw consumersEnd();
    }

    @Override
    public Iterator<Long> iterator() {
        throw consumersEnd();
    }

    private static UnsupportedOperationException consumersEnd() {
        return new UnsupportedOperationException("this is the producer's end: the consumer's is in another process");
    }
}
