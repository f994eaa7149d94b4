package corpus.libraries;

import com.google.common.util.concurrent.Striped;
import corpus.LockCorpus;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;

/**
 * Guava's {@code Striped.lock}, the lock corpus's striped case (io.mech.it.StripedLockTest), both
 * ways in one JVM, one after the other, once mech has started:
 * <ul>
 *   <li>{@code hotStripe}: 8 threads update counters under the stripe of one key, so every one of
 *       them takes the same lock;</li>
 *   <li>{@code spreadStripes}: 8 threads each take the stripe of a key of its own, keys picked so
 *       that no two threads share a stripe.</li>
 * </ul>
 * Each runs {@code seconds}, the work under the lock about 2 µs. The truth is what each thread
 * found when it asked: an acquisition is contended when {@code tryLock()} failed, the lock held by
 * another thread, and only then does the thread wait in {@code lock()}. It prints
 * {@code case=<name> ops=<n> contended=<n> lock_ms=<total ms waiting in lock()>}: on 2 cores the
 * wait also holds the time a thread lost its core, so the count is the truth and the time a guide.
 */
public final class GuavaStripes {

    private static final int THREADS = 8;
    private static final int STRIPES = 64;
    private static final long HELD_NANOS = 2_000;

    private GuavaStripes() {
    }

    public static void main(final String[] args) throws Exception {
        final long nanos = TimeUnit.MILLISECONDS.toNanos((long) (Double.parseDouble(args[0]) * 1000));
        final Striped<Lock> striped = Striped.lock(STRIPES);
        // the verdict wants the probe up: beside 8 spinning threads on 2 cores it came up after a 2 s hot case had ended
        LockCorpus.awaitMech();
        hotStripe(striped, nanos);
        spreadStripes(striped, nanos);
    }

    private static void hotStripe(final Striped<Lock> striped, final long nanos) throws InterruptedException {
        final List<Lock> locks = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            locks.add(striped.get("hot"));
        }
        run("hotStripe", locks, nanos, GuavaStripes::hotUpdate);
    }

    private static void spreadStripes(final Striped<Lock> striped, final long nanos) throws InterruptedException {
        final Map<Lock, Boolean> taken = new IdentityHashMap<>();
        final List<Lock> locks = new ArrayList<>();
        for (int key = 0; locks.size() < THREADS; key++) {
            final Lock lock = striped.get("key-" + key);
            if (taken.put(lock, Boolean.TRUE) == null) {
                locks.add(lock);
            }
        }
        run("spreadStripes", locks, nanos, GuavaStripes::spreadUpdate);
    }

    /** The hot case's update: lock() is called here, so the probe's site (its caller) names the case. */
    private static long hotUpdate(final Lock lock) {
        if (lock.tryLock()) {
            return holdAndUnlock(lock, 0);
        }
        final long asked = System.nanoTime();
        lock.lock();
        return holdAndUnlock(lock, System.nanoTime() - asked);
    }

    private static long spreadUpdate(final Lock lock) {
        if (lock.tryLock()) {
            return holdAndUnlock(lock, 0);
        }
        final long asked = System.nanoTime();
        lock.lock();
        return holdAndUnlock(lock, System.nanoTime() - asked);
    }

    /**
     * Holds the lock about {@link #HELD_NANOS} and unlocks it.
     *
     * @param waited the nanoseconds lock() took after tryLock() failed; 0 when it did not
     * @return waited, or -1 when the acquisition was not contended
     */
    private static long holdAndUnlock(final Lock lock, final long waited) {
        final long got = System.nanoTime();
        try {
            while (System.nanoTime() - got < HELD_NANOS) {
                Thread.onSpinWait();
            }
        } finally {
            lock.unlock();
        }
        return waited == 0 ? -1 : waited;
    }

    private interface Update {
        long apply(Lock lock);
    }

    private static void run(final String name, final List<Lock> locks, final long nanos, final Update update) throws InterruptedException {
        final LongAdder ops = new LongAdder();
        final LongAdder contended = new LongAdder();
        final LongAdder inLock = new LongAdder();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (final Lock lock : locks) {
            final Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (final InterruptedException e) {
                    return;
                }
                final long end = System.nanoTime() + nanos;
                long waited = 0;
                long found = 0;
                long done = 0;
                while (System.nanoTime() < end) {
                    final long wait = update.apply(lock);
                    if (wait >= 0) {
                        found++;
                        waited += wait;
                    }
                    done++;
                }
                ops.add(done);
                contended.add(found);
                inLock.add(waited);
            }, "corpus-" + name);
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (final Thread thread : threads) {
            thread.join();
        }
        System.out.printf(java.util.Locale.ROOT, "case=%s ops=%d contended=%d lock_ms=%.1f%n", name, ops.sum(),
            contended.sum(), inLock.sum() / 1e6);
    }
}
