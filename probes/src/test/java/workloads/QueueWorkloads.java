package workloads;

import java.util.AbstractQueue;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Iterator;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;

/** Queues made by application code (outside io.mech), so the probe names a site for each. */
public final class QueueWorkloads {

    private QueueWorkloads() {
    }

    public static ArrayBlockingQueue<Integer> arrayBlocking(final int capacity) {
        return new ArrayBlockingQueue<>(capacity);
    }

    /** The no-argument constructor chains to this(Integer.MAX_VALUE): two constructor exits. */
    public static LinkedBlockingQueue<Integer> linkedBlocking() {
        return new LinkedBlockingQueue<>();
    }

    public static LinkedBlockingQueue<Integer> linkedBlocking(final int capacity) {
        return new LinkedBlockingQueue<>(capacity);
    }

    public static LinkedBlockingDeque<Integer> linkedDeque(final int capacity) {
        return new LinkedBlockingDeque<>(capacity);
    }

    public static PriorityBlockingQueue<Integer> priority() {
        return new PriorityBlockingQueue<>();
    }

    public static DelayQueue<Delay> delay() {
        return new DelayQueue<>();
    }

    public static ConcurrentLinkedQueue<Integer> concurrentLinked() {
        return new ConcurrentLinkedQueue<>();
    }

    public static LinkedTransferQueue<Integer> transfer() {
        return new LinkedTransferQueue<>();
    }

    public static ExecutorService fixedPool(final int threads) {
        return Executors.newFixedThreadPool(threads);
    }

    public static Counted<Integer> counted() {
        return new Counted<>();
    }

    public static jobs.JobQueue<Integer> jobs() {
        return new jobs.JobQueue<>();
    }

    public static Bounded<Integer> bounded(final int limit) {
        return new Bounded<>(limit);
    }

    /** An element of a DelayQueue, due at once. */
    public static final class Delay implements Delayed {
        @Override
        public long getDelay(final TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(final Delayed other) {
            return 0;
        }
    }

    /** An application queue class: the probe counts its offers and polls. */
    public static final class Counted<E> extends AbstractQueue<E> {
        private final ArrayDeque<E> items = new ArrayDeque<>();

        @Override
        public synchronized boolean offer(final E e) {
            return items.offer(e);
        }

        @Override
        public synchronized E poll() {
            return items.poll();
        }

        @Override
        public synchronized E peek() {
            return items.peek();
        }

        @Override
        public Iterator<E> iterator() {
            throw new UnsupportedOperationException();
        }

        @Override
        public synchronized int size() {
            return items.size();
        }
    }

    /** A superclass whose constructor returns, and registers the queue, before its subclass's sets the bound. */
    public abstract static class Base<E> extends AbstractQueue<E> {
    }

    /**
     * An application blocking queue whose bound only its {@code remainingCapacity()} tells: its
     * field's name says nothing of it, and it is set after {@link Base}'s constructor has run, as
     * JCTools' queues set their mask.
     */
    public static final class Bounded<E> extends Base<E> implements BlockingQueue<E> {
        private final ArrayDeque<E> items = new ArrayDeque<>();
        private final int most;

        Bounded(final int limit) {
            this.most = limit;
        }

        @Override
        public synchronized boolean offer(final E e) {
            return items.size() < most && items.offer(e);
        }

        @Override
        public synchronized E poll() {
            return items.poll();
        }

        @Override
        public synchronized E peek() {
            return items.peek();
        }

        @Override
        public Iterator<E> iterator() {
            throw new UnsupportedOperationException();
        }

        @Override
        public synchronized int size() {
            return items.size();
        }

        @Override
        public synchronized int remainingCapacity() {
            return most - items.size();
        }

        @Override
        public void put(final E e) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean offer(final E e, final long timeout, final TimeUnit unit) {
            return offer(e);
        }

        @Override
        public E take() {
            throw new UnsupportedOperationException();
        }

        @Override
        public E poll(final long timeout, final TimeUnit unit) {
            return poll();
        }

        @Override
        public int drainTo(final Collection<? super E> to) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int drainTo(final Collection<? super E> to, final int max) {
            throw new UnsupportedOperationException();
        }
    }
}
