package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * An exchange still running when the server stops, as a scrape that came in while the host
 * exited: it is interrupted, and its handler's call to start the write deadline finds the timeout
 * thread gone. That is no error of mech's (ci34 counted one, a RejectedExecutionException on
 * {@code mech-prometheus-1}).
 */
class ScrapeThreadsShutdownTest {

    @Test
    void anExchangeThatRespondsAfterShutdownNeedsNoDeadlineAndFailsNothing() throws Exception {
        final ScrapeThreads threads = new ScrapeThreads(new ClientErrors());
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch done = new CountDownLatch(1);
        final CountDownLatch never = new CountDownLatch(1);
        final AtomicReference<Throwable> thrown = new AtomicReference<>();
        threads.execute(() -> {
            started.countDown();
            try {
                never.await();
            } catch (final InterruptedException stopped) {
                // shutdownNow's interrupt: the handler goes on to respond, as a real one would have begun to
            }
            try {
                ScrapeThreads.responding();
            } catch (final RuntimeException e) {
                thrown.set(e);
            }
            done.countDown();
        });
        assertTrue(started.await(10, TimeUnit.SECONDS), "the exchange started");
        threads.shutdown();
        assertTrue(done.await(10, TimeUnit.SECONDS), "the exchange ended");
        assertNull(thrown.get(), "responding after shutdown threw");
    }
}
