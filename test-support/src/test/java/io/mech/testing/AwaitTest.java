package io.mech.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AwaitTest {

    @Test
    void returnsTheFirstValueOnceTheConditionHolds() throws InterruptedException {
        final AtomicInteger looks = new AtomicInteger();
        assertEquals("third", Await.value("a third look", Duration.ofSeconds(10), () -> looks.incrementAndGet() == 3 ? "third" : null));
        assertEquals(3, looks.get());
    }

    @Test
    void failsNamingWhatItAwaited() {
        final AssertionError e = assertThrows(AssertionError.class, () -> Await.until("the impossible", Duration.ofMillis(20), () -> false));
        assertTrue(e.getMessage().contains("the impossible") && e.getMessage().contains("20 ms"), e.getMessage());
    }

    @Test
    void aLookThatThrowsHasFoundNothingYetAndItsLastExceptionIsTheCause() {
        final AtomicInteger looks = new AtomicInteger();
        final AssertionError e = assertThrows(AssertionError.class, () -> Await.until("a file", Duration.ofMillis(30), () -> {
            throw new IOException("look " + looks.incrementAndGet());
        }));
        assertTrue(looks.get() > 1 && e.getCause().getMessage().equals("look " + looks.get()), e.toString());
    }

    @Test
    void aCostlyLookIsMadeNoMoreOftenThanAsked() throws InterruptedException {
        final AtomicInteger looks = new AtomicInteger();
        final long start = System.nanoTime();
        Await.until("a third look", Duration.ofSeconds(10), Duration.ofMillis(50), () -> looks.incrementAndGet() == 3);
        assertTrue(System.nanoTime() - start >= Duration.ofMillis(100).toNanos(), "two pauses of 50 ms between three looks");
    }
}
