package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

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
        final List<String> warnings = new ArrayList<>();
        final FalseSharingProbe probe = FalseSharingProbe.start(inst,
            new FalseSharingSettings(List.of(include), 200_000_000L, 2_000_000_000L), false, warnings::add);
        try {
            final long deadline = System.nanoTime() + 20_000_000_000L;
            while (probe.snapshot().state() != FalseSharingSnapshot.State.DONE && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
        } finally {
            threads.forEach(Thread::interrupt);
            for (final Thread thread : threads) {
                thread.join(5_000);
            }
            probe.close();
        }
        final FalseSharingSnapshot done = probe.snapshot();
        assertEquals(List.of(), warnings);
        assertEquals(FalseSharingSnapshot.State.DONE, done.state());
        return done;
    }
}
