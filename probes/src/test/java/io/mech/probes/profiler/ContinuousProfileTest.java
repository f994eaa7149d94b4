package io.mech.probes.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ContinuousProfileTest {

    @TempDir
    Path dir;

    private static ContinuousProfile.Segment segment(final int index) {
        return new ContinuousProfile.Segment(Path.of("segment." + index + ".jfr"), index * 100L, (index + 1) * 100L);
    }

    @Test
    void aTriggerEarlyInItsSegmentTakesThatSegmentAndTheOneBefore() {
        final List<ContinuousProfile.Segment> done = List.of(segment(0), segment(1), segment(2));
        assertEquals(List.of(segment(0), segment(1)), ContinuousProfile.windowAround(done, 120, false));
        assertEquals(List.of(segment(0)), ContinuousProfile.windowAround(done, 10, false), "no segment before the first");
    }

    @Test
    void aTriggerLateInItsSegmentAlsoWaitsForTheNext() {
        assertEquals(List.of(segment(0), segment(1), segment(2)),
            ContinuousProfile.windowAround(List.of(segment(0), segment(1), segment(2)), 170, false));
        assertEquals(List.of(), ContinuousProfile.windowAround(List.of(segment(0), segment(1)), 170, false), "the next is still sampled");
    }

    @Test
    void atExitAWindowWaitingForItsNextSegmentIsWrittenWithThoseThereAre() {
        assertEquals(List.of(segment(0), segment(1)), ContinuousProfile.windowAround(List.of(segment(0), segment(1)), 170, true));
        assertEquals(List.of(segment(1), segment(2)), ContinuousProfile.windowAround(List.of(segment(0), segment(1), segment(2)), 280, true),
            "the segment cut at exit is the trigger's own");
    }

    @Test
    void aTriggerInTheRunningSegmentWaitsAndOneRotatedOutIsLost() {
        assertEquals(List.of(), ContinuousProfile.windowAround(List.of(segment(0), segment(1)), 230, false));
        assertNull(ContinuousProfile.windowAround(List.of(segment(3), segment(4)), 250, false));
    }

    /** The real async-profiler, in this JVM: a busy thread is in the window written after a trigger. */
    @Test
    void theWindowAroundATriggerIsWrittenAsJfrAndFlameGraph() throws Exception {
        final AtomicBoolean busy = new AtomicBoolean(true);
        final Thread spinner = new Thread(() -> {
            while (busy.get()) {
                spinAWhile();
            }
        }, "spinner");
        spinner.start();
        final long fireAt = System.nanoTime() + 700_000_000L;
        final AtomicBoolean fired = new AtomicBoolean();
        final TriggerSource once = new TriggerSource() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public String check(final long nowNanos) {
                return nowNanos >= fireAt && fired.compareAndSet(false, true) ? "fired once" : null;
            }
        };
        final List<String> warnings = new CopyOnWriteArrayList<>();
        try (Profiler profiler = Profiler.of(new ProfilerSettings(dir, dir, ProfileEvent.CPU, true, 500, 0, 5, false),
            List.of(once), warnings::add).start()) {
            final long deadline = System.nanoTime() + 20_000_000_000L;
            while (profiler.taken().isEmpty() && !profiler.failed() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(List.of(), warnings);
            assertEquals(1, profiler.taken().size(), "one capture after one trigger");
            final Path html = profiler.taken().get(0).html();
            assertTrue(Files.readString(html, StandardCharsets.UTF_8).contains("spinAWhile"), "the busy method is in the flame graph");
            final String metadata = Files.readString(CaptureFiles.metadataOf(html), StandardCharsets.UTF_8);
            assertTrue(metadata.contains("\"mode\":\"continuous\"") && metadata.contains("\"engine\":\"wall\""), metadata);
            assertTrue(chunks(CaptureFiles.jfrOf(html)) >= 2, "the window spans at least two segments");
        } finally {
            busy.set(false);
            spinner.join();
        }
        assertTrue(Files.list(dir).noneMatch(file -> file.getFileName().toString().startsWith(".continuous")),
            "closing removes the segments");
    }

    private static long chunks(final Path jfr) throws Exception {
        final byte[] bytes = Files.readAllBytes(jfr);
        long count = 0;
        for (int at = 0; at + 16 <= bytes.length; count++) {
            assertEquals("FLR", new String(bytes, at, 3, StandardCharsets.US_ASCII), "a chunk starts at " + at);
            at += (int) java.nio.ByteBuffer.wrap(bytes, at + 8, 8).getLong();
        }
        return count;
    }

    private static volatile double sink;

    private static void spinAWhile() {
        double x = sink;
        for (int i = 0; i < 100_000; i++) {
            x += Math.sqrt(i + x);
        }
        sink = x;
    }
}
