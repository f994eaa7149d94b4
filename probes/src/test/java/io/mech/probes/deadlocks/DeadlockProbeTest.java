package io.mech.probes.deadlocks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.probes.VmOperations;
import io.mech.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlockProbeTest {

    private final List<Thread> started = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private DeadlockProbe probe;

    @AfterEach
    void endThreads() throws InterruptedException {
        VmOperations.timeWith(null);
        if (probe != null) {
            probe.close();
        }
        // lockInterruptibly lets an interrupt end a deadlock that a monitor would keep forever
        for (final Thread thread : started) {
            thread.interrupt();
            thread.join(5_000);
        }
    }

    /** Two threads that take two locks in opposite orders, both holding their first once both have it. */
    private void pair(final String name, final ReentrantLock a, final ReentrantLock b, final boolean inverted) {
        final CountDownLatch bothHoldTheirFirst = new CountDownLatch(2);
        started.add(start(name + "-1", a, b, inverted ? bothHoldTheirFirst : null));
        started.add(start(name + "-2", inverted ? b : a, inverted ? a : b, inverted ? bothHoldTheirFirst : null));
    }

    private static Thread start(final String name, final ReentrantLock first, final ReentrantLock second, final CountDownLatch both) {
        final Thread thread = new Thread(() -> {
            try {
                for (int i = 0; i < (both == null ? 1_000 : 1); i++) {
                    first.lockInterruptibly();
                    try {
                        if (both != null) {
                            both.countDown();
                            both.await();
                        }
                        second.lockInterruptibly();
                        second.unlock();
                    } finally {
                        first.unlock();
                    }
                }
            } catch (final InterruptedException ended) {
                Thread.currentThread().interrupt();
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    @Test
    void locksTakenInOppositeOrdersAreOneDeadlockNamedOnceWithItsThreadsLocksAndFrames() throws Exception {
        final ReentrantLock a = new ReentrantLock();
        final ReentrantLock b = new ReentrantLock();
        pair("inverted", a, b, true);
        pair("ordered", new ReentrantLock(), new ReentrantLock(), false);
        final List<String> timed = new CopyOnWriteArrayList<>();
        final AtomicInteger returned = new AtomicInteger();
        VmOperations.timeWith(name -> {
            timed.add(name);
            return returned::incrementAndGet;
        });
        probe = DeadlockProbe.start(1_000, warnings::add);
        Await.until("a deadlock found by two checks", Duration.ofSeconds(20),
            () -> !probe.snapshot().deadlocks().isEmpty() && probe.snapshot().checks() >= 2);
        final DeadlockSnapshot found = probe.snapshot();
        assertEquals(1, found.deadlocks().size(), "one cycle, found by every check, named once: " + found);
        assertEquals(2, found.threads());
        final List<Waiter> waiters = found.deadlocks().get(0).waiters();
        assertEquals(List.of("inverted-1", "inverted-2"), waiters.stream().map(Waiter::thread).sorted().toList(), found.toString());
        for (final Waiter waiter : waiters) {
            assertTrue(waiter.lock().startsWith("java.util.concurrent.locks.ReentrantLock$NonfairSync@"), waiter.toString());
            assertTrue(waiter.owner().startsWith("inverted-") && !waiter.owner().equals(waiter.thread()), waiter.toString());
            assertTrue(waiter.at().startsWith(DeadlockProbeTest.class.getName() + ".lambda$start$"), waiter.toString());
        }
        assertEquals(List.of(), warnings);
        probe.close();
        assertTrue(timed.contains("FindDeadlocks") && timed.contains("ThreadDump"),
            "the search and the dump of the stuck threads are timed as mech's own: " + timed);
        // a check under way as the probe closed still ends its call, within milliseconds
        Await.until("every timed call ended", Duration.ofSeconds(5), () -> returned.get() == timed.size());
    }

    @Test
    void aCycleIsToldFromItsLowestIdAndAThreadLeadingIntoItIsNoCycleOfItsOwn() {
        final Map<Long, Long> owners = Map.of(7L, 3L, 3L, 9L, 9L, 7L, 12L, 3L);
        assertEquals(List.of(3L, 9L, 7L), DeadlockProbe.cycle(7, owners));
        assertEquals(List.of(3L, 9L, 7L), DeadlockProbe.cycle(9, owners));
        assertEquals(List.of(), DeadlockProbe.cycle(12, owners), "12 waits for the cycle and is not in it");
        assertEquals(List.of(), DeadlockProbe.cycle(1, Map.of(1L, 2L)), "an owner that is not stuck: no cycle");
    }

    @Test
    void thePeriodHasAFloorOfASecond() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> DeadlockProbe.start(999, warnings::add));
        assertTrue(refused.getMessage().contains("at least 1s"), refused.getMessage());
    }
}
