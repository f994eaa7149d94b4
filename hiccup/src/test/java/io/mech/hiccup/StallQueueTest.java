package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StallQueueTest {

    @Test
    void handsStallsOverInOrderAndDropsWhenFull() {
        final StallQueue queue = new StallQueue(4);
        for (int i = 1; i <= 6; i++) {
            queue.offer(i * 100L, i);
        }
        final List<Long> lengths = new ArrayList<>();
        assertEquals(4, queue.poll((end, length, evidence, at) -> lengths.add(length)));
        assertEquals(List.of(1L, 2L, 3L, 4L), lengths);
        assertEquals(2, queue.dropped());
        assertEquals(5 + 6, queue.droppedNanos());
        assertEquals(6, queue.longestDropped());
        queue.offer(700, 7);
        lengths.clear();
        assertEquals(1, queue.poll((end, length, evidence, at) -> lengths.add(end + length)));
        assertEquals(List.of(707L), lengths);
    }

    @Test
    void aHandlerThatThrowsGetsItsStallAgainAndNoneBeforeItTwice() {
        final StallQueue queue = new StallQueue(8);
        for (int i = 1; i <= 4; i++) {
            queue.offer(i * 100L, i);
        }
        final List<Long> handled = new ArrayList<>();
        // a consumer cut short by a full heap at its third stall
        assertThrows(OutOfMemoryError.class, () -> queue.poll((end, length, evidence, at) -> {
            if (length == 3) {
                throw new OutOfMemoryError("full");
            }
            handled.add(length);
        }));
        assertEquals(2, queue.poll((end, length, evidence, at) -> handled.add(length)));
        assertEquals(List.of(1L, 2L, 3L, 4L), handled);
    }

    @Test
    void oneProducerAndOneConsumerLoseNothingInBetween() throws InterruptedException {
        final StallQueue queue = new StallQueue(1024);
        final int total = 200_000;
        final Thread producer = new Thread(() -> {
            for (int i = 0; i < total; i++) {
                final long before = queue.dropped();
                queue.offer(i, i);
                while (queue.dropped() != before) {
                    Thread.onSpinWait();
                    final long again = queue.dropped();
                    queue.offer(i, i);
                    if (queue.dropped() == again) {
                        break;
                    }
                }
            }
        });
        producer.start();
        final long[] next = {0};
        final long[] mismatches = {0};
        while (producer.isAlive() || next[0] < total) {
            queue.poll((end, length, evidence, at) -> {
                if (end != next[0] || length != next[0]) {
                    mismatches[0]++;
                }
                next[0] = end + 1;
            });
        }
        producer.join();
        assertEquals(total, next[0]);
        assertEquals(0, mismatches[0]);
    }

    @Test
    void eachStallCarriesWhatTheCountersMovedByAcrossIt() {
        final StallQueue queue = new StallQueue(4, 2);
        queue.offer(100, 10, new long[] {0, 0, 7, 40}, 2, new long[] {5, 30}, 0);
        queue.offer(200, 20);
        final List<String> seen = new ArrayList<>();
        queue.poll((end, length, evidence, at) -> seen.add(end + ":" + evidence[at] + "," + evidence[at + 1]));
        assertEquals(List.of("100:2,10", "200:0,0"), seen);
    }

    @Test
    void capacityMustBeAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new StallQueue(100));
    }
}
