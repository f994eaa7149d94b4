package io.mech.examples.backpressure;

import io.mech.examples.BusyWork;
import io.mech.examples.StopSignal;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A producer and a consumer joined by a bounded ArrayBlockingQueue, each burning a set amount of
 * work per item. When the producer's work per item is smaller than the consumer's, the queue
 * fills and {@code put} blocks: back pressure. A producer given a window smaller than the queue
 * also waits while that many items are in flight, whatever the threads' speeds: a consumer
 * descheduled for a while on a loaded machine cannot let the queue fill behind it.
 */
public final class BoundedPipeline {
    /** End of stream; real items are non-negative sequence numbers. */
    private static final Long END = -1L;

    private final BlockingQueue<Long> queue;
    private final int producerRounds;
    private final int consumerRounds;
    private final long window;
    /** Items the consumer has taken, published only when the producer has a window to keep. */
    private final AtomicLong taken = new AtomicLong();
    private long produced;
    private long consumed;
    private long outOfOrder;
    private long consumerWork;

    /**
     * @param capacity       the queue's bound
     * @param producerRounds {@link BusyWork} rounds per item produced
     * @param consumerRounds {@link BusyWork} rounds per item consumed
     * @param window         the most items in flight the producer allows; the capacity or more for no limit but the queue's
     */
    public BoundedPipeline(final int capacity, final int producerRounds, final int consumerRounds, final int window) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.producerRounds = producerRounds;
        this.consumerRounds = consumerRounds;
        this.window = window < capacity ? window : Long.MAX_VALUE;
    }

    /**
     * Produces sequence numbers until {@code stop} is raised, then the end marker.
     *
     * @param stop when to stop
     * @throws InterruptedException if interrupted while blocked on a full queue
     */
    public void produce(final StopSignal stop) throws InterruptedException {
        long seq = 0;
        long work = 1;
        long seenTaken = 0;
        while (!stop.isRaised()) {
            work = BusyWork.burn(work, producerRounds);
            // the consumer's count is read only when the last one seen would close the window
            while (seq - seenTaken >= window && seq - (seenTaken = taken.get()) >= window) {
                LockSupport.parkNanos(50_000);
            }
            queue.put(seq++);
        }
        queue.put(END);
        produced = seq;
        if (work == 0) {
            throw new IllegalStateException("unreachable: xorshift never reaches zero");
        }
    }

    /**
     * Consumes until the end marker, checking that items arrive once each and in order.
     *
     * @throws InterruptedException if interrupted while waiting on an empty queue
     */
    public void consume() throws InterruptedException {
        long expected = 0;
        long wrong = 0;
        long work = 1;
        final boolean publish = window != Long.MAX_VALUE;
        for (Long item = queue.take(); !item.equals(END); item = queue.take()) {
            if (item != expected) {
                wrong++;
            }
            expected = item + 1;
            if (publish) {
                taken.lazySet(expected);
            }
            work = BusyWork.burn(work ^ item, consumerRounds);
        }
        consumed = expected;
        outOfOrder = wrong;
        consumerWork = work;
    }

    /** @return items produced; read after the producer has finished */
    public long produced() {
        return produced;
    }

    /** @return items consumed, by the last sequence number seen; read after the consumer has finished */
    public long consumed() {
        return consumed;
    }

    /** @return items that did not follow their predecessor; read after the consumer has finished */
    public long outOfOrder() {
        return outOfOrder;
    }

    /** @return whether the consumer's work result is plausible (keeps the work alive) */
    public boolean consumerWorkDone() {
        return consumerWork != 0;
    }

    /** @return the queue, for wrappers that drive it themselves */
    public BlockingQueue<Long> queue() {
        return queue;
    }
}
