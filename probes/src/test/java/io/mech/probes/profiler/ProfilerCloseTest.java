package io.mech.probes.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real async-profiler, in this JVM: what closing at the host's exit makes of a capture in flight. */
class ProfilerCloseTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    private final List<String> warnings = new CopyOnWriteArrayList<>();

    /** Fires once, when asked after the given time. */
    private static TriggerSource onceAfter(final long nanos, final AtomicBoolean fired) {
        return new TriggerSource() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public String check(final long nowNanos) {
                return nowNanos >= nanos && fired.compareAndSet(false, true) ? "fired once" : null;
            }
        };
    }

    private List<Path> files(final Path captures) throws Exception {
        if (!Files.isDirectory(captures)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(captures)) {
            return files.sorted().toList();
        }
    }

    private static void await(final BooleanSupplier condition, final String what) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(20), condition::getAsBoolean);
    }

    private static boolean profilerThreadRuns() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(thread -> thread.getName().equals("mech-profiler"));
    }

    /** A 10 s capture, once async-profiler samples into its JFR file. */
    private Profiler sampling(final Path captures) throws Exception {
        final Profiler profiler = Profiler.of(new ProfilerSettings(captures, dir, ProfileEvent.WALL, false, 10_000, 0, 5, false),
            List.of(onceAfter(0, new AtomicBoolean())), warnings::add).start();
        await(() -> {
            try {
                return files(captures).stream().anyMatch(file -> file.toString().endsWith(".jfr"));
            } catch (final Exception e) {
                throw new IllegalStateException(e);
            }
        }, "the capture's JFR file");
        return profiler;
    }

    @Test
    void aCaptureStillSamplingIsCutShortAndWrittenAsFarAsItGot() throws Exception {
        final Path captures = dir.resolve("captures");
        final Profiler profiler = sampling(captures);
        final long closing = System.nanoTime();
        profiler.close(closing + 5 * SECOND);
        assertTrue(System.nanoTime() - closing < 5 * SECOND, "close keeps its deadline");

        assertEquals(List.of(), warnings);
        assertEquals(List.of(), profiler.unfinished());
        assertEquals(1, profiler.taken().size(), "the capture is listed: " + files(captures));
        final Profiler.Taken taken = profiler.taken().get(0);
        assertTrue(taken.cutShort() && taken.millis() < 10_000, taken.toString());
        assertEquals(List.of(CaptureFiles.metadataOf(taken.html()), taken.html(), CaptureFiles.jfrOf(taken.html())).stream().sorted().toList(),
            files(captures), "the flame graph, JFR file and metadata, and nothing else");
        final String metadata = Files.readString(CaptureFiles.metadataOf(taken.html()), StandardCharsets.UTF_8);
        assertTrue(metadata.contains("\"millis\":" + taken.millis() + ",") && metadata.contains("\"cutShort\":true"), metadata);
        assertTrue(Files.readString(taken.html(), StandardCharsets.UTF_8).contains("<html"), "a whole flame graph");
    }

    @Test
    void aCaptureNotWrittenByTheDeadlineIsListedUnfinishedAndItsFilesRemoved() throws Exception {
        final Path captures = dir.resolve("captures");
        final Profiler profiler = sampling(captures);
        final Path jfr = files(captures).get(0);
        profiler.close(System.nanoTime());

        assertEquals(List.of(), profiler.taken());
        assertEquals(1, profiler.unfinished().size());
        final Profiler.Unfinished unfinished = profiler.unfinished().get(0);
        assertEquals("test", unfinished.trigger());
        assertEquals("not written in time", unfinished.reason());
        assertTrue(unfinished.removed().contains(jfr), unfinished.toString());
        // The profiler thread goes on after the deadline; what it writes then it removes itself.
        await(() -> !profilerThreadRuns(), "the profiler thread ends");
        assertEquals(List.of(), files(captures));
        assertEquals(List.of(), profiler.taken(), "nothing is listed after the deadline");
    }

    @Test
    void aContinuousWindowStillWaitingForItsSegmentsIsWrittenWithThoseThereAre() throws Exception {
        final Path captures = dir.resolve("captures");
        final AtomicBoolean fired = new AtomicBoolean();
        // Late in the second 1 s segment: its window waits for the third, which the close cuts.
        final Profiler profiler = Profiler.of(new ProfilerSettings(captures, dir, ProfileEvent.WALL, true, 1_000, 0, 5, false),
            List.of(onceAfter(System.nanoTime() + 1_700_000_000L, fired)), warnings::add).start();
        await(fired::get, "the trigger");
        profiler.close(System.nanoTime() + 5 * SECOND);

        assertEquals(List.of(), warnings);
        assertEquals(List.of(), profiler.unfinished());
        assertEquals(1, profiler.taken().size(), "the window is written: " + files(captures));
        final Profiler.Taken taken = profiler.taken().get(0);
        assertTrue(taken.cutShort(), taken.toString());
        assertTrue(Files.readString(CaptureFiles.metadataOf(taken.html()), StandardCharsets.UTF_8).contains("\"cutShort\":true"));
        assertEquals(3, files(captures).size(), "the capture's three files, and no segment left: " + files(captures));
    }
}
