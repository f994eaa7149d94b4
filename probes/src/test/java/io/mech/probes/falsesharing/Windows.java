package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** One false-sharing window run in the test's own JVM, beside the threads a test started. */
final class Windows {

    private Windows() {
    }

    /**
     * Opens a window at once over the included package, waits up to 20 s for it to close, stops
     * the threads and the probe, and holds the run to no warnings and a closed window.
     *
     * @param threads started, running until interrupted
     * @return the probe's snapshot once the window closed
     */
    static FalseSharingSnapshot run(final Instrumentation inst, final String include, final List<Thread> threads)
        throws InterruptedException {
        final FalseSharingProbe probe = runUntil(inst, new FalseSharingSettings(List.of(include), 200_000_000L, 2_000_000_000L),
            threads, p -> p.snapshot().state() == FalseSharingSnapshot.State.DONE, 20_000_000_000L);
        final FalseSharingSnapshot done = probe.snapshot();
        assertEquals(FalseSharingSnapshot.State.DONE, done.state());
        return done;
    }

    /**
     * Starts the probe as the settings say, waits until {@code done} holds or the time is up, stops
     * the threads and the probe, and holds the run to no warnings.
     *
     * @param threads started, running until interrupted
     * @return the closed probe
     */
    static FalseSharingProbe runUntil(final Instrumentation inst, final FalseSharingSettings settings, final List<Thread> threads,
                                      final Predicate<FalseSharingProbe> done, final long timeoutNanos) throws InterruptedException {
        final List<String> warnings = new ArrayList<>();
        final FalseSharingProbe probe = FalseSharingProbe.start(inst, settings, false, warnings::add);
        try {
            final long deadline = System.nanoTime() + timeoutNanos;
            while (!done.test(probe) && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            threads.forEach(Thread::interrupt);
            for (final Thread thread : threads) {
                thread.join(5_000);
            }
            probe.close();
        }
        assertEquals(List.of(), warnings);
        return probe;
    }
}
