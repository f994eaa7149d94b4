package io.mech.examples.ipc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The mapped ring and the producer's queue over it, both ends in this JVM, through two mappings of one file. */
class MappedRingTest {

    private static final int CAPACITY = 8;

    @TempDir
    Path dir;

    @Test
    void fillsToItsBoundAndEmptiesInOrder() throws Exception {
        final Path path = dir.resolve("ring.map");
        final MappedQueue producer = new MappedQueue(SharedFile.map(path, CAPACITY).toPeer());
        final MappedRing consumer = SharedFile.map(path, CAPACITY).toPeer();
        assertEquals(MappedRing.EMPTY, consumer.poll());
        for (long i = 0; i < CAPACITY; i++) {
            assertTrue(producer.offer(i));
        }
        assertFalse(producer.offer(99L), "full at its bound");
        assertEquals(CAPACITY, producer.size());
        assertEquals(0, producer.remainingCapacity());
        assertEquals(0, consumer.poll());
        assertEquals(1, consumer.poll());
        assertEquals(CAPACITY - 2, producer.size(), "the size counts what the other mapping took");
        assertEquals(CAPACITY, producer.currentProducerIndex());
        assertEquals(2, producer.currentConsumerIndex());
        assertTrue(producer.offer(CAPACITY));
        for (long i = 2; i <= CAPACITY; i++) {
            assertEquals(i, consumer.poll());
        }
        assertEquals(MappedRing.EMPTY, consumer.poll());
        assertTrue(producer.isEmpty());
        assertThrows(UnsupportedOperationException.class, producer::poll, "the consumer's end is elsewhere");
    }

    @Test
    void carriesAMillionValuesBetweenThreadsInOrder() throws Exception {
        final Path path = dir.resolve("stream.map");
        final MappedRing producer = SharedFile.map(path, CAPACITY).toPeer();
        final MappedRing consumer = SharedFile.map(path, CAPACITY).toPeer();
        final long values = 1_000_000;
        final AtomicLong misordered = new AtomicLong();
        final Thread taker = new Thread(() -> {
            long expected = 0;
            while (expected < values) {
                final long value = consumer.poll();
                if (value == MappedRing.EMPTY) {
                    Thread.onSpinWait();
                    continue;
                }
                if (value != expected) {
                    misordered.incrementAndGet();
                }
                expected = value + 1;
            }
        }, "ring-consumer");
        taker.start();
        for (long i = 0; i < values; i++) {
            while (!producer.offer(i)) {
                Thread.onSpinWait();
            }
        }
        taker.join(60_000);
        assertFalse(taker.isAlive(), "the consumer took every value");
        assertEquals(0, misordered.get());
        assertEquals(values, producer.consumerIndex());
    }

    @Test
    void refusesARingThatDoesNotFitOrIsNotAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new MappedRing(ByteBuffer.allocateDirect(64), 0, CAPACITY));
        assertThrows(IllegalArgumentException.class, () -> new MappedRing(ByteBuffer.allocateDirect(4096), 0, 6));
        assertThrows(IllegalArgumentException.class, () -> new MappedRing(ByteBuffer.allocateDirect(4096), 8, CAPACITY));
    }
}
