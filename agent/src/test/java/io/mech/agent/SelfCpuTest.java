package io.mech.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        final SelfCpu cpu = new SelfCpu();
        final CountDownLatch sampled = new CountDownLatch(1);
        final Thread busy = new Thread(() -> {
            final long until = System.nanoTime() + 50_000_000L;
            long spins = 0;
            while (System.nanoTime() < until) {
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
        assertTrue(byThread.getOrDefault("mech-test-burner", 0L) >= 20_000_000L, "at least 20 ms of a 50 ms spin: " + byThread);
        assertTrue(byThread.keySet().stream().allMatch(name -> name.startsWith("mech-")), byThread.toString());
    }
}
