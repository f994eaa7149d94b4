package io.mech.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PeriodicTest {

    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    private final List<String> warnings = new CopyOnWriteArrayList<>();

    /** Waits, on the runner's own state, for its thread to end; at most a few seconds. */
    private static boolean ends(final Periodic periodic) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (periodic.running() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        return !periodic.running();
    }

    @Test
    void runsAtOnceWhenAskedThenEveryPeriodOnItsOwnMechThread() throws Exception {
        final CountDownLatch three = new CountDownLatch(3);
        final List<String> threads = new CopyOnWriteArrayList<>();
        final Periodic periodic = Periodic.start("mech-test-runner", TimeUnit.MILLISECONDS.toNanos(10), true, () -> {
            threads.add(Thread.currentThread().getName() + (Thread.currentThread().isDaemon() ? " daemon" : ""));
            three.countDown();
        }, warnings::add);
        assertTrue(three.await(5, TimeUnit.SECONDS), "three rounds");
        periodic.close();
        assertTrue(ends(periodic));
        assertEquals("mech-test-runner daemon", threads.get(0));
        assertEquals(List.of(), warnings);
    }

    @Test
    void closeEndsARunnerWaitingOutALongPeriodAtOnceAndNoRoundRunsAfter() throws Exception {
        final AtomicInteger rounds = new AtomicInteger();
        final Periodic periodic = Periodic.start("mech-test-runner", HOUR, false, rounds::incrementAndGet, warnings::add);
        assertTrue(periodic.running());
        periodic.close();
        assertTrue(ends(periodic), "ended without waiting out its hour");
        assertEquals(0, rounds.get(), "the first round was an hour away");
    }

    @Test
    void aDutyThatThrowsIsOneWarningNamingTheThreadAndTheRunnerEnds() throws Exception {
        final AtomicInteger rounds = new AtomicInteger();
        final Periodic periodic = Periodic.start("mech-test-runner", TimeUnit.MILLISECONDS.toNanos(1), true, () -> {
            rounds.incrementAndGet();
            throw new IllegalStateException("broken duty");
        }, warnings::add);
        assertTrue(ends(periodic));
        assertEquals(1, rounds.get());
        assertEquals(List.of("mech-test-runner stopped (java.lang.IllegalStateException: broken duty)"), warnings);
    }

    @Test
    void aRunnerIsNamedAsMechsAndHasAPeriod() {
        assertThrows(IllegalArgumentException.class, () -> Periodic.start("sampler", HOUR, false, () -> { }, warnings::add));
        assertThrows(IllegalArgumentException.class, () -> Periodic.start("mech-sampler", 0, false, () -> { }, warnings::add));
        assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("sampler")));
    }
}
