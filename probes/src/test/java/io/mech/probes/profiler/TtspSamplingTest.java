package io.mech.probes.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import workloads.SafepointWorkloads;

/**
 * The real async-profiler, in this JVM: time-to-safepoint sampling names the method that keeps
 * safepoints waiting, pauses for a capture on trigger and samples again once it is written.
 */
class TtspSamplingTest {

    private static final String CULPRIT = SafepointWorkloads.BulkCopier.class.getName() + ".copy";

    @TempDir
    Path dir;

    private final List<String> warnings = new CopyOnWriteArrayList<>();

    @Test
    void namesTheCopyThatHoldsSafepointsAndSharesTheProfilerWithACapture() throws Exception {
        final AtomicBoolean captureWanted = new AtomicBoolean();
        final TriggerSource whenAsked = new TriggerSource() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public String check(final long nowNanos) {
                return captureWanted.compareAndSet(true, false) ? "asked by the test" : null;
            }
        };
        final Thread copier = new Thread(new SafepointWorkloads.BulkCopier(8 << 20), "ttsp-copier");
        final Thread requester = new Thread(SafepointWorkloads::askForSafepoints, "ttsp-requester");
        copier.start();
        requester.start();
        final Profiler profiler = Profiler.of(new ProfilerSettings(dir.resolve("captures"), dir, ProfileEvent.WALL, false, 300, 0, 5, true),
            List.of(whenAsked), warnings::add).start();
        try {
            await(() -> named(profiler.ttspCulprits()), "the copy named before any capture");
            captureWanted.set(true);
            await(() -> !profiler.taken().isEmpty(), "the capture written");
            final long afterCapture = profiler.ttspCulprits().samples();
            await(() -> profiler.ttspCulprits().samples() >= afterCapture + CulpritCounts.MIN_SAMPLES,
                "samples again once the capture is written");
        } finally {
            requester.interrupt();
            copier.interrupt();
            profiler.close();
        }
        final TtspCulprits culprits = profiler.ttspCulprits();
        assertEquals(List.of(), warnings);
        assertNull(culprits.unavailable());
        final TtspCulprits.Culprit top = culprits.culprits().get(0);
        assertEquals(CULPRIT, top.method(), culprits.toString());
        assertTrue(top.in().contains("arraycopy"), "System.arraycopy, or the JVM's stub once compiled: " + culprits);
        assertTrue(culprits.share(top) > 0.5, culprits.toString());
        assertTrue(profiler.taken().get(0).millis() >= 300, "the capture sampled its whole length: " + profiler.taken());
    }

    @Test
    void continuousModeSaysWhyItNamesNoCulprit() {
        try (Profiler profiler = Profiler.of(new ProfilerSettings(dir, dir, ProfileEvent.WALL, true, 500, 0, 5, true),
            List.of(), warnings::add).start()) {
            assertTrue(profiler.ttspCulprits().unavailable().contains("profiler.mode=continuous"), profiler.ttspCulprits().toString());
        }
    }

    private static boolean named(final TtspCulprits culprits) {
        return !culprits.culprits().isEmpty() && culprits.culprits().get(0).method().equals(CULPRIT);
    }

    private static void await(final BooleanSupplier condition, final String what) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(30), condition::getAsBoolean);
    }
}
