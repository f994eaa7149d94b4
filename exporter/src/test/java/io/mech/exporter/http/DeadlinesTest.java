package io.mech.exporter.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The deadline thread on its own: what it closes, when, and what it counts. */
class DeadlinesTest {

    private final AtomicInteger timeouts = new AtomicInteger();
    private final Deadlines deadlines = new Deadlines(2, new Drops() {
        @Override
        public void timedOut() {
            timeouts.incrementAndGet();
        }

        @Override
        public void disconnected() {
            throw new AssertionError("the deadline thread counts no disconnection");
        }

        @Override
        public void rejected() {
            throw new AssertionError("the deadline thread counts no rejection");
        }
    });
    private final Thread thread = new Thread(deadlines, "test-deadlines");

    @AfterEach
    void stop() throws InterruptedException {
        deadlines.stop();
        thread.join(10_000);
    }

    /** Parked until a far deadline, the thread still closes a nearer one armed after it parked, on time. */
    @Test
    void aNearerDeadlineArmedWhileTheThreadWaitsForAFarOneIsKeptOnTime() throws Exception {
        thread.start();
        final Deadlines.Slot far = deadlines.slot(0);
        far.serve(() -> {
        });
        far.arm(TimeUnit.SECONDS.toNanos(60));
        awaitParked();
        final CountDownLatch closed = new CountDownLatch(1);
        final Deadlines.Slot near = deadlines.slot(1);
        near.serve(closed::countDown);
        final long start = System.nanoTime();
        near.arm(TimeUnit.MILLISECONDS.toNanos(100));
        assertTrue(closed.await(30, TimeUnit.SECONDS), "the near deadline closed its connection");
        final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(tookMillis < 10_000, "closed after " + tookMillis + " ms, not when the far deadline passed");
        assertEquals(1, timeouts.get());
        assertTrue(!near.disarm() && far.disarm(), "the near one expired, the far one still armed");
    }

    /** An idle connection's end closes it without counting a timeout; a write deadline that passes counts one. */
    @Test
    void anIdleConnectionsEndIsNoTimeout() throws Exception {
        thread.start();
        final CountDownLatch closed = new CountDownLatch(2);
        final Deadlines.Slot idle = deadlines.slot(0);
        idle.serve(closed::countDown);
        idle.armIdle(TimeUnit.MILLISECONDS.toNanos(10));
        final Deadlines.Slot writing = deadlines.slot(1);
        writing.serve(closed::countDown);
        writing.arm(TimeUnit.MILLISECONDS.toNanos(10));
        assertTrue(closed.await(30, TimeUnit.SECONDS), "both connections closed");
        assertEquals(1, timeouts.get(), "only the write deadline is a timeout");
    }

    private void awaitParked() throws InterruptedException {
        Await.until("the deadline thread parked", Duration.ofSeconds(30), () -> thread.getState() == Thread.State.TIMED_WAITING);
    }
}
