package workloads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Small locking workloads after the examples' locks kernel. The contended monitor holds its lock
 * for about 2 ms on one acquisition in 2,048, so that some blocks certainly exceed JFR's 1 ms
 * threshold whatever the scheduler does. The ReentrantLock does not: its many short contended
 * acquisitions are the point, and a non-fair lock's losers park past 1 ms often enough anyway
 * (hundreds of times in a few seconds here, against 342k parks in all).
 */
public final class Workloads {

    private Workloads() {
    }

    /** Busy-waits, holding whatever the caller holds. */
    public static void hold(final long nanos) {
        final long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    /** A counter behind this object's monitor. */
    public static final class ContendedMonitor {
        private long count;

        public synchronized void bump() {
            if ((++count & 2047) == 0) {
                hold(2_000_000L);
            }
        }
    }

    /** The same monitor, used by one thread only. */
    public static final class LoneMonitor {
        private long count;

        public synchronized void bump() {
            count++;
        }

        public synchronized long count() {
            return count;
        }
    }

    /** One thread waiting 1 ms per increment: inflation by wait, no contention. */
    public static final class WaitingMonitor {
        private long count;

        public synchronized void bumpAndWait() throws InterruptedException {
            count++;
            wait(1);
        }
    }

    /** A monitor to be held by one thread while another enters it. */
    public static final class HeldMonitor {
        /** Enters the monitor and leaves at once. */
        public synchronized void enter() {
        }
    }

    /** A counter behind a non-fair ReentrantLock. */
    public static final class ReentrantCounter {
        private final ReentrantLock lock = new ReentrantLock();
        private long count;

        public void bump() {
            lock.lock();
            try {
                count++;
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * A counter behind a non-fair ReentrantLock that notes, holding the lock, whether another thread
     * is queued for it: each such thread is in the acquire slow path, so the count shows that the
     * lock was contended without asking the probe.
     */
    public static final class QueuedReentrantCounter {
        private final ReentrantLock lock = new ReentrantLock();
        private long count;
        private long queuedSeen;

        public void bump() {
            lock.lock();
            try {
                count++;
                if (lock.hasQueuedThreads()) {
                    queuedSeen++;
                }
            } finally {
                lock.unlock();
            }
        }

        /** @return how many times a holder saw another thread queued */
        public long queuedSeen() {
            lock.lock();
            try {
                return queuedSeen;
            } finally {
                lock.unlock();
            }
        }
    }

    /** A ReentrantLock used by one thread only. */
    public static final class LoneReentrantCounter {
        private final ReentrantLock lock = new ReentrantLock();
        private long count;

        public void bump() {
            lock.lock();
            try {
                count++;
            } finally {
                lock.unlock();
            }
        }
    }

    /** A counter behind a ReentrantReadWriteLock's write lock. */
    public static final class ReadWriteCounter {
        private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
        private long count;

        public void bump() {
            lock.writeLock().lock();
            try {
                count++;
            } finally {
                lock.writeLock().unlock();
            }
        }
    }

    /** A monitor to wait on: a monitor-wait event, with an application frame, that a test can wait for. */
    public static final class Marker {
        public synchronized void await(final long millis) throws InterruptedException {
            wait(millis);
        }
    }

    /** A test-and-test-and-set spin lock: no JVM lock at all. */
    public static final class SpinCounter {
        private final java.util.concurrent.atomic.AtomicBoolean locked = new java.util.concurrent.atomic.AtomicBoolean();
        private long count;

        public void bump() {
            while (locked.get() || !locked.compareAndSet(false, true)) {
                Thread.onSpinWait();
            }
            count++;
            locked.set(false);
        }
    }

    /**
     * A pool of one permit, held 2 ms a borrow: a second borrower parks in
     * {@link Semaphore#acquire()} for about that long. It times its own waits.
     */
    public static final class PermitPool {
        private final Semaphore permits = new Semaphore(1);
        private final AtomicLong waitedNanos = new AtomicLong();
        private final AtomicLong longWaitedNanos = new AtomicLong();
        private final long thresholdNanos;

        /** @param thresholdNanos the shortest wait {@link #longWaitedNanos()} sums: the probe's threshold */
        public PermitPool(final long thresholdNanos) {
            this.thresholdNanos = thresholdNanos;
        }

        public void borrow() throws InterruptedException {
            final long start = System.nanoTime();
            permits.acquire();
            final long waited = System.nanoTime() - start;
            waitedNanos.addAndGet(waited);
            if (waited >= thresholdNanos) {
                longWaitedNanos.addAndGet(waited);
            }
            try {
                hold(2_000_000L);
            } finally {
                permits.release();
            }
        }

        /** @return the time borrowers spent in {@code acquire}, all of it */
        public long waitedNanos() {
            return waitedNanos.get();
        }

        /** @return the time borrowers spent in the acquisitions that took the threshold or longer */
        public long longWaitedNanos() {
            return longWaitedNanos.get();
        }
    }

    /**
     * A ThreadPoolExecutor whose thread factory runs each worker inside this class's code, as
     * factories that set up a thread's context do: an idle worker's stack has this class's frame
     * under the executor's get-task path. {@link #feed()} hands it a task every 2 ms, so its workers
     * keep parking on their queue and waking. The executor is never shut down: its workers are
     * daemons, idle until the test JVM ends. A shutdown wakes both at once, and on a busy machine
     * the exiting workers contend for the executor's main lock (2 parks, 7 ms, beside a fresh
     * clone's build and two busy threads): real contention, but not the idle waits shown here.
     */
    public static final class IdleWorkers {
        private final ThreadPoolExecutor executor = new ThreadPoolExecutor(2, 2, 1, TimeUnit.MINUTES,
            new LinkedBlockingQueue<>(), task -> {
                final Thread thread = new Thread(() -> runWorker(task), "idle-worker");
                thread.setDaemon(true);
                return thread;
            });

        private static void runWorker(final Runnable worker) {
            worker.run();
        }

        public void feed() throws InterruptedException {
            executor.execute(() -> { });
            Thread.sleep(2);
        }
    }

    /** Something to run in a loop until told to stop. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    /**
     * Runs the step on {@code threads} threads named {@code name-i} for {@code millis}.
     *
     * @return the threads' names
     */
    public static List<String> run(final String name, final int threads, final long millis, final Step step)
        throws InterruptedException {
        final long end = System.nanoTime() + millis * 1_000_000L;
        final List<Thread> workers = new ArrayList<>();
        final List<String> names = new ArrayList<>();
        final Throwable[] failure = new Throwable[1];
        for (int i = 0; i < threads; i++) {
            final Thread t = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        for (int j = 0; j < 256; j++) {
                            step.run();
                        }
                    }
                } catch (final Throwable e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                }
            }, name + "-" + i);
            workers.add(t);
            names.add(t.getName());
            t.start();
        }
        for (final Thread t : workers) {
            t.join();
        }
        synchronized (failure) {
            if (failure[0] != null) {
                throw new AssertionError("workload " + name + " failed", failure[0]);
            }
        }
        return names;
    }
}
