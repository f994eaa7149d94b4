package io.mech.probes.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The watch that starts JFR on demand: silent over threads that never contend and over blocks
 * from before its baseline, and it asks once when a host's thread blocks on a monitor for the
 * threshold, is found parked on a held lock, or a counted lock acquisition waits that long. Rounds are run here by hand: the
 * watch's own thread waits a period longer than the test.
 */
class ContentionWatchTest {

    private static final long THRESHOLD = 1_000_000L;
    private static final long NEVER = Long.MAX_VALUE / 4;

    private final List<String> asked = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final AtomicReference<List<JucContention>> counted = new AtomicReference<>(List.of());
    private ContentionWatch watch;

    @AfterEach
    void close() {
        if (watch != null) {
            watch.close();
        }
    }

    private ContentionWatch watch() {
        watch = new ContentionWatch(counted::get, THRESHOLD, asked::add, warnings::add, NEVER, false);
        return watch;
    }

    @Test
    void aHostThatNeverContendsNeverAsks() throws Exception {
        final ContentionWatch w = watch();
        w.round();
        // waited on by a latch, not join(): a joining thread re-enters the ended thread's monitor,
        // which the JVM holds to notify it, and on a busy machine that is a block of a millisecond
        final CountDownLatch done = new CountDownLatch(1);
        new Thread(() -> {
            synchronized (new Object()) {
                Thread.onSpinWait();
            }
            done.countDown();
        }, "idle").start();
        assertTrue(done.await(10, TimeUnit.SECONDS));
        w.round();
        w.round();
        assertEquals(List.of(), asked);
        assertNull(w.fired());
        assertEquals(List.of(), warnings);
    }

    @Test
    void aMonitorBlockedOnForTheThresholdAsksOnceNamingTheThread() throws Exception {
        final ContentionWatch w = watch();
        w.round();
        final Object lock = new Object();
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch seen = new CountDownLatch(1);
        final Thread blocked;
        synchronized (lock) {
            blocked = new Thread(() -> {
                held.countDown();
                synchronized (lock) {
                    Thread.onSpinWait();
                }
                // alive until the rounds read it: an ended thread has no figures
                try {
                    seen.await();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "host-blocker");
            blocked.start();
            held.await();
            // held until the thread is seen blocked, and past the threshold: a condition, then the length the test is about
            while (blocked.getState() != Thread.State.BLOCKED) {
                Thread.onSpinWait();
            }
            final long until = System.nanoTime() + 5 * THRESHOLD;
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
        }
        for (int round = 0; round < 4 && asked.isEmpty(); round++) {
            w.round();
        }
        seen.countDown();
        blocked.join();
        assertEquals(1, asked.size(), "asked once: " + asked);
        assertTrue(asked.get(0).contains("\"host-blocker\" blocked 1 time"), asked.get(0));
        assertTrue(w.blocked() >= 1, "blocks counted: " + w.blocked());
        w.round();
        assertEquals(1, asked.size(), "never again: " + asked);
    }

    @Test
    void aThreadFoundParkedOnAHeldLockAsksAtTheFirstRound() throws Exception {
        final ReentrantLock lock = new ReentrantLock();
        final Thread parked;
        lock.lock();
        try {
            parked = new Thread(() -> {
                lock.lock();
                lock.unlock();
            }, "host-parker");
            parked.start();
            // parked once the lock's queue holds it: a condition, not a sleep
            while (!lock.hasQueuedThread(parked) || parked.getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
            watch().round();
        } finally {
            lock.unlock();
        }
        parked.join();
        assertEquals(List.of("j.u.c. lock contention: thread \"host-parker\" parked on a java.util.concurrent.locks.ReentrantLock"),
            asked);
    }

    @Test
    void aCountedAcquisitionPastTheThresholdAsks() {
        final ContentionWatch w = watch();
        counted.set(List.of(new JucContention("java.util.concurrent.locks.ReentrantLock", "", 3, THRESHOLD / 2, THRESHOLD / 4,
            BlockedHistogram.empty())));
        w.round();
        assertNull(w.fired(), "three short acquisitions are not worth JFR");
        counted.set(List.of(new JucContention("java.util.concurrent.locks.ReentrantLock", "", 4, 3 * THRESHOLD, 2 * THRESHOLD,
            BlockedHistogram.empty())));
        w.round();
        assertNotNull(w.fired());
        assertEquals(List.of("a java.util.concurrent.locks.ReentrantLock acquisition waited 2.0 ms"), asked);
    }

    @Test
    void aWatchThatFiresInItsFirstRoundAsksWithoutAWord() throws Exception {
        counted.set(List.of(new JucContention("java.util.concurrent.locks.ReentrantLock", "", 4, 3 * THRESHOLD, 2 * THRESHOLD,
            BlockedHistogram.empty())));
        final List<String> told = new CopyOnWriteArrayList<>();
        final List<String> said = new CopyOnWriteArrayList<>();
        // the first round runs at once, on the runner's thread, and closes the runner as it fires
        watch = new ContentionWatch(counted::get, THRESHOLD, told::add, said::add, NEVER, true);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (told.isEmpty() && said.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(List.of("a java.util.concurrent.locks.ReentrantLock acquisition waited 2.0 ms"), told);
        assertEquals(List.of(), said);
    }
}
