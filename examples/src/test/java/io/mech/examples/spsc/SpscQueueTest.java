package io.mech.examples.spsc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.examples.Kernels;
import io.mech.examples.Team;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** One sanity suite over every step of the ladder. */
class SpscQueueTest {

    static Stream<String> steps() {
        return Kernels.named("spsc").orElseThrow().variants().stream().map(v -> v.name());
    }

    @ParameterizedTest
    @MethodSource("steps")
    void holdsExactlyItsCapacityInOrder(final String step) {
        final SpscQueue<Object> queue = SpscKernel.queue(step).get();
        assertNull(queue.poll());
        for (int i = 0; i < SpscKernel.CAPACITY; i++) {
            assertTrue(queue.offer(i), "offer " + i);
        }
        assertFalse(queue.offer(-1), "offer beyond capacity");
        for (int i = 0; i < SpscKernel.CAPACITY; i++) {
            assertEquals(i, queue.poll());
        }
        assertNull(queue.poll());
        assertTrue(queue.offer(7), "offer after wrapping");
        assertEquals(7, queue.poll());
    }

    @ParameterizedTest
    @MethodSource("steps")
    void transfersEveryElementOnceInOrderAcrossThreads(final String step) throws InterruptedException {
        final Transfer transfer = new Transfer(SpscKernel.queue(step).get());
        final long produced = transfer(transfer, 50_000_000L);
        assertTrue(produced > 0);
        assertEquals(produced, transfer.consumed());
        assertEquals(0, transfer.mismatches());
    }

    @Test
    void transferCatchesAQueueThatLosesElements() throws InterruptedException {
        final SpscQueue<Object> inner = new CachedQueue<>(SpscKernel.CAPACITY);
        final SpscQueue<Object> lossy = new SpscQueue<>() {
            private long offers;

            @Override
            public boolean offer(final Object element) {
                if (++offers % 1000 == 0) {
                    return true;
                }
                return inner.offer(element);
            }

            @Override
            public Object poll() {
                return inner.poll();
            }
        };
        final Transfer transfer = new Transfer(lossy);
        final Team team = new Team();
        team.start("spsc-test-consumer", () -> {
            // The consumer waits for as many elements as were offered; a lossy queue never delivers them all.
            final Thread consumer = new Thread(transfer::consume, "spsc-test-inner-consumer");
            consumer.setDaemon(true);
            consumer.start();
            consumer.join(2_000);
        });
        team.start("spsc-test-producer", () -> transfer.produce(team.stop()));
        team.runFor(50_000_000L);
        team.join();
        assertTrue(transfer.produced() >= 1000, "produced " + transfer.produced());
        assertTrue(transfer.consumed() < transfer.produced() || transfer.mismatches() > 0,
                "loss went unnoticed: consumed " + transfer.consumed() + " of " + transfer.produced());
    }

    private static long transfer(final Transfer transfer, final long nanos) throws InterruptedException {
        final Team team = new Team();
        team.start("spsc-test-consumer", transfer::consume);
        team.start("spsc-test-producer", () -> transfer.produce(team.stop()));
        team.runFor(nanos);
        team.join();
        return transfer.produced();
    }
}
