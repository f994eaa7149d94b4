package io.mech.probes.allocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The probe on this JVM: an allocating thread of the host is named first, an idle one is not counted for much, mech's never. */
class AllocationProbeTest {

    /** Where allocations escape to, so that the JIT cannot remove them. */
    static volatile Object sink;

    @Test
    void theThreadThatAllocatesIsNamedFirstAndMechsThreadsNever() throws Exception {
        final List<String> warnings = new ArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        final CountDownLatch started = new CountDownLatch(2);
        final Thread allocating = new Thread(() -> {
            started.countDown();
            while (!stop.get()) {
                sink = new byte[1024];
            }
        }, "test-allocating");
        final Thread mechs = new Thread(() -> {
            started.countDown();
            while (!stop.get()) {
                sink = new long[512];
            }
        }, "mech-test-allocating");
        final AllocationProbe probe = AllocationProbe.start(100, warnings::add);
        try {
            allocating.start();
            mechs.start();
            started.await();
            Await.until("100 MiB of a thread's counted", Duration.ofSeconds(30),
                () -> !probe.snapshot().top().isEmpty() && probe.snapshot().top().get(0).bytes() >= 100L << 20);
        } finally {
            stop.set(true);
            allocating.join();
            mechs.join();
            probe.close();
        }
        final AllocationSnapshot now = probe.snapshot();
        assertEquals("test-allocating", now.top().get(0).thread(), now.toString());
        assertTrue(now.top().stream().noneMatch(t -> t.thread().startsWith("mech-")), now.toString());
        assertTrue(now.bytes() >= now.top().get(0).bytes() && now.meanRate() > 0, now.toString());
        assertTrue(now.top().size() <= AllocationProbe.TOP);
        assertEquals(List.of(), warnings);
    }

    /** More allocating threads than the top holds: the top keeps the biggest, biggest first. */
    @Test
    void theTopHoldsTheThreadsThatAllocatedMostInOrder() throws Exception {
        final int threads = AllocationProbe.TOP + 2;
        final CountDownLatch go = new CountDownLatch(1);
        final CountDownLatch allocated = new CountDownLatch(threads);
        final CountDownLatch counted = new CountDownLatch(1);
        final List<Thread> ranked = new ArrayList<>();
        for (int i = 1; i <= threads; i++) {
            final long bytes = i * (16L << 20);
            final Thread thread = new Thread(() -> {
                try {
                    go.await();
                    for (long sum = 0; sum < bytes; sum += 1024) {
                        sink = new byte[1024 - 16];
                    }
                    allocated.countDown();
                    // alive until a check has counted it: what an ended thread allocated after the last check is not seen
                    counted.await();
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "test-ranked-" + i);
            ranked.add(thread);
            thread.start();
        }
        final AllocationProbe probe = AllocationProbe.start(100, w -> { });
        try {
            // a thread's bytes count from the check that first sees it
            Await.until("two checks with every ranked thread alive", Duration.ofSeconds(30), () -> probe.snapshot().checks() >= 2);
            go.countDown();
            allocated.await();
            final long checked = probe.snapshot().checks();
            Await.until("a whole check after the last allocation", Duration.ofSeconds(30), () -> probe.snapshot().checks() >= checked + 2);
        } finally {
            counted.countDown();
            for (final Thread thread : ranked) {
                thread.join();
            }
            probe.close();
        }
        final List<String> top = new ArrayList<>();
        for (final ThreadAllocation thread : probe.snapshot().top()) {
            if (thread.thread().startsWith("test-ranked-")) {
                top.add(thread.thread());
            }
        }
        final List<String> expected = new ArrayList<>();
        for (int i = threads; i > threads - top.size(); i--) {
            expected.add("test-ranked-" + i);
        }
        assertTrue(top.size() >= AllocationProbe.TOP - 1, probe.snapshot().toString());
        assertTrue(probe.snapshot().top().get(0).bytes() >= threads * (16L << 20) * 9 / 10, probe.snapshot().toString());
        assertEquals(expected, top, probe.snapshot().toString());
    }

    @Test
    void aThreadThatEndedIsStillTold() throws Exception {
        final AllocationProbe probe = AllocationProbe.start(100, w -> { });
        try {
            final Thread brief = new Thread(() -> {
                final long until = System.nanoTime() + 500_000_000L;
                while (System.nanoTime() < until) {
                    sink = new byte[4096];
                }
            }, "test-brief");
            brief.start();
            brief.join();
            final ThreadAllocation ended = Await.value("the brief thread told as ended", Duration.ofSeconds(30),
                () -> probe.snapshot().top().stream().filter(t -> t.thread().equals("test-brief") && !t.alive()).findFirst().orElse(null));
            assertTrue(ended.bytes() > 0 && ended.lastRate() == 0, ended.toString());
        } finally {
            probe.close();
        }
    }
}
