package io.mech.examples.mpsc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.examples.Team;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MpscLinkedQueueTest {

    @Test
    void behavesAsAFifoQueueOnOneThread() {
        final MpscLinkedQueue<String> queue = new MpscLinkedQueue<>();
        assertTrue(queue.isEmpty());
        assertNull(queue.poll());
        assertNull(queue.peek());
        assertEquals(0, queue.size());
        queue.offer("a");
        queue.add("b");
        queue.offer("c");
        assertEquals(3, queue.size());
        assertEquals(List.of("a", "b", "c"), new ArrayList<>(queue));
        assertEquals("a", queue.peek());
        assertEquals("a", queue.poll());
        assertEquals(List.of("b", "c"), new ArrayList<>(queue));
        assertEquals(2, queue.size());
        queue.clear();
        assertTrue(queue.isEmpty());
        assertEquals(0, queue.size());
        assertFalse(queue.iterator().hasNext());
        assertThrows(NullPointerException.class, () -> queue.offer(null));
    }

    @Test
    void everyItemArrivesOnceInProducerOrderAndPollIsNullOnlyWhenEmpty() throws InterruptedException {
        final int producers = 3;
        final int perProducer = 100_000;
        final MpscLinkedQueue<Long> queue = new MpscLinkedQueue<>();
        final AtomicInteger running = new AtomicInteger(producers);
        final Team team = new Team();
        for (int p = 0; p < producers; p++) {
            final long tag = (long) p << 32;
            team.start("mpsc-test-producer-" + p, () -> {
                for (long i = 0; i < perProducer; i++) {
                    queue.offer(tag | i);
                }
                running.decrementAndGet();
            });
        }
        final long[] next = new long[producers];
        final long[] sizeSeen = new long[1];
        team.start("mpsc-test-consumer", () -> {
            long received = 0;
            while (received < (long) producers * perProducer) {
                final Long item = queue.poll();
                if (item == null) {
                    // Null is only allowed when the queue really is empty at that moment's tail.
                    continue;
                }
                final int p = (int) (item >>> 32);
                if ((item & 0xFFFF_FFFFL) != next[p]) {
                    throw new AssertionError("producer " + p + ": expected " + next[p] + " got " + (item & 0xFFFF_FFFFL));
                }
                next[p]++;
                received++;
                if ((received & 0x3FFF) == 0) {
                    sizeSeen[0] = Math.max(sizeSeen[0], queue.size());
                }
            }
        });
        team.join();
        for (int p = 0; p < producers; p++) {
            assertEquals(perProducer, next[p], "producer " + p);
        }
        assertEquals(0, running.get());
        assertNull(queue.poll());
        assertEquals(0, queue.size());
        assertTrue(sizeSeen[0] <= (long) producers * perProducer, "size " + sizeSeen[0]);
    }

    @Test
    void sizeTerminatesWhileProducersKeepOffering() throws InterruptedException {
        final MpscLinkedQueue<Integer> queue = new MpscLinkedQueue<>();
        final Team team = new Team();
        for (int p = 0; p < 2; p++) {
            team.start("mpsc-test-flooder-" + p, () -> {
                while (!team.stop().isRaised()) {
                    if (queue.size() < 200_000) {
                        queue.offer(1);
                    }
                }
            });
        }
        final long deadline = System.nanoTime() + 100_000_000L;
        int sizes = 0;
        while (System.nanoTime() < deadline) {
            assertTrue(queue.size() >= 0);
            sizes++;
        }
        team.stop().raise();
        team.join();
        assertTrue(sizes > 0);
    }
}
