package io.mech.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class SelfCpuTest {

    @Test
    void aPoolsNumberIsDroppedAndOtherNamesKept() {
        assertEquals("mech-prometheus-scrape", SelfCpu.poolName("mech-prometheus-scrape-17"));
        assertEquals("mech-hiccup-meter", SelfCpu.poolName("mech-hiccup-meter"));
        assertEquals("mech-42", SelfCpu.poolName("mech-42"), "a name that is only a number keeps it");
        assertEquals("mech-v2", SelfCpu.poolName("mech-v2"), "a number not after a dash is part of the name");
    }

    @Test
    void anEndedMechThreadKeepsItsTimeAndOtherThreadsAreNotCounted() throws Exception {
        final ThreadGroup mechs = new ThreadGroup("mech-test");
        final SelfCpu cpu = new SelfCpu(mechs);
        final CountDownLatch sampled = new CountDownLatch(1);
        final Thread busy = new Thread(mechs, () -> {
            // spins until it has used 30 ms of CPU, however long a loaded machine takes to give it that
            final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            final long until = threads.getCurrentThreadCpuTime() + 30_000_000L;
            final long deadline = System.nanoTime() + 10_000_000_000L;
            long spins = 0;
            while (threads.getCurrentThreadCpuTime() < until && System.nanoTime() < deadline) {
                spins++;
            }
            cpu.sample();
            sampled.countDown();
            assertTrue(spins > 0);
        }, "mech-test-burner-3");
        busy.start();
        sampled.await();
        busy.join();
        final Map<String, Long> byThread = cpu.byThread();
        assertTrue(byThread.getOrDefault("mech-test-burner", 0L) >= 20_000_000L, "at least 20 ms of a spin of 30 ms of CPU: " + byThread);
        assertTrue(byThread.keySet().stream().allMatch(name -> name.startsWith("mech-")), byThread.toString());
    }

    @Test
    void aThreadOutsideMechsGroupIsNotMechsWhateverItsName() throws Exception {
        final SelfCpu cpu = new SelfCpu(new ThreadGroup("mech-test"));
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final Thread impostor = new Thread(() -> {
            started.countDown();
            try {
                done.await();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mech-impostor");
        impostor.start();
        try {
            started.await();
            assertFalse(cpu.byThread().containsKey("mech-impostor"), cpu.byThread().toString());
        } finally {
            done.countDown();
            impostor.join();
        }
    }
}
