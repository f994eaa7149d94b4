package io.mech.probes.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CaptureFilesTest {

    @TempDir
    Path dir;

    private Path capture(final LocalDateTime when, final String trigger) throws Exception {
        final Path html = Files.writeString(CaptureFiles.name(dir, when, 42, trigger), "graph");
        Files.writeString(CaptureFiles.metadataOf(html), "{}");
        Files.writeString(CaptureFiles.jfrOf(html), "jfr");
        return html;
    }

    @Test
    void namesSortByTimeAndSayWhy() {
        assertEquals("capture.20261123-050607.42.lock.html",
            CaptureFiles.name(dir, LocalDateTime.of(2026, 11, 23, 5, 6, 7), 42, "lock").getFileName().toString());
    }

    @Test
    void pruningRemovesTheOldestCapturesWithTheirJfrAndMetadataAndNothingElse() throws Exception {
        final LocalDateTime t = LocalDateTime.of(2026, 11, 23, 5, 0);
        final Path oldest = capture(t, "hiccup");
        final Path middle = capture(t.plusMinutes(1), "queue");
        final Path newest = capture(t.plusMinutes(2), "lock");
        final Path foreign = Files.writeString(dir.resolve("report.html"), "not a capture");

        assertEquals(List.of(oldest, middle), CaptureFiles.prune(dir, 1));
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(newest, CaptureFiles.metadataOf(newest), CaptureFiles.jfrOf(newest), foreign).stream().sorted().toList(),
                left.sorted().toList());
        }
        assertEquals(List.of(), CaptureFiles.prune(dir, 1), "nothing more to remove");
    }

    @Test
    void pruningLeavesFilesThatOnlyLookLikeCaptures() throws Exception {
        final LocalDateTime t = LocalDateTime.of(2026, 11, 23, 5, 0);
        final Path old = capture(t, "hiccup");
        final Path kept = capture(t.plusMinutes(1), "lock");
        final List<Path> decoys = new ArrayList<>();
        // Each sorts before mech's captures, so a prefix match would take them first.
        for (final String name : List.of("capture.0-my-notes", "capture.2026-notes.1.hiccup", "capture.20261123-0500.42.hiccup",
            "capture.20261123-050000.pid.hiccup", "capture.20261123-050000.42.Hiccup", "capture.20261123-050000.42.hiccup.old")) {
            for (final String extension : List.of(".html", ".json", ".jfr")) {
                decoys.add(Files.writeString(dir.resolve(name + extension), "the user's"));
            }
        }
        final Path directory = Files.createDirectory(dir.resolve("capture.20200101-000000.1.hiccup.html"));

        assertEquals(List.of(old), CaptureFiles.prune(dir, 1));
        assertTrue(Files.exists(kept) && Files.notExists(old) && Files.notExists(CaptureFiles.jfrOf(old)));
        for (final Path decoy : decoys) {
            assertEquals("the user's", Files.readString(decoy), decoy + " is left as it was");
        }
        assertTrue(Files.isDirectory(directory), "a directory named like a capture is not one");
    }

    @Test
    void aTriggerNamePruningWouldNotRecogniseIsRefused() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> CaptureFiles.name(dir, LocalDateTime.of(2026, 11, 23, 5, 0), 42, "my-notes"));
        assertTrue(refused.getMessage().contains("'my-notes'"), refused.getMessage());
    }

    @Test
    void aLibraryThatCannotLoadTurnsTheProfilerOffWithOneWarning() throws Exception {
        final Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        final List<String> warnings = new CopyOnWriteArrayList<>();
        final TriggerSource always = new TriggerSource() {
            @Override
            public String name() {
                return "test";
            }

            @Override
            public String check(final long nowNanos) {
                return "always";
            }
        };
        try (Profiler profiler = Profiler.of(new ProfilerSettings(dir.resolve("captures"), notADirectory, ProfileEvent.WALL,
            false, 100, 0, 5, false), List.of(always), warnings::add).start()) {
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (!profiler.failed() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Thread.sleep(3 * Profiler.POLL_MILLIS);
            assertTrue(profiler.failed());
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith("profiler off: cannot extract"), warnings.get(0));
            assertEquals(List.of(), profiler.taken());
        }
    }
}
