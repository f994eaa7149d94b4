package io.mech.probes.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfilerPiecesTest {

    @TempDir
    Path dir;

    @Test
    void eventsAreTheTimerAndJvmOnesOnly() {
        assertEquals(ProfileEvent.WALL, ProfileEvent.parse("wall"));
        assertEquals("alloc", ProfileEvent.ALLOC.asyncProfilerName());
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> ProfileEvent.parse("cycles"));
        assertTrue(refused.getMessage().contains("'cycles'"), refused.getMessage());
    }

    @Test
    void jfrAndMetadataSitBesideTheFlameGraph() {
        assertEquals(dir.resolve("profile.20261123-0101.42.json"), CaptureFiles.metadataOf(dir.resolve("profile.20261123-0101.42.html")));
        assertEquals(dir.resolve("profile.20261123-0101.42.jfr"), CaptureFiles.jfrOf(dir.resolve("profile.20261123-0101.42.html")));
    }

    @Test
    void anExtractPathThatIsAFileNamesItself() throws IOException {
        final Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
        final IOException refused = assertThrows(IOException.class, () -> NativeProfiler.load(file));
        assertTrue(refused.getMessage().contains("cannot extract") && refused.getMessage().contains(file.toString()), refused.getMessage());
    }

    @Test
    void theLibraryIsExtractedIntoANewDirectoryOnlyItsOwnerCanEnter() throws IOException {
        Assumptions.assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "needs POSIX permissions");
        final Path first = NativeProfiler.extract(dir);
        final Path second = NativeProfiler.extract(dir);
        try {
            assertEquals(dir, first.getParent().getParent());
            assertTrue(first.getParent().getFileName().toString().startsWith("mech-profiler-"), first.toString());
            assertNotEquals(first.getParent(), second.getParent(), "each extraction makes a directory of its own");
            assertEquals(PosixFilePermissions.fromString("rwx------"), Files.getPosixFilePermissions(first.getParent()));
            assertTrue(Files.size(first) > 100_000, "the whole library");
        } finally {
            for (final Path library : List.of(first, second)) {
                Files.delete(library);
                Files.delete(library.getParent());
            }
        }
    }

    /** The real library, in this JVM. */
    @Test
    void aFileAtTheOldPredictableNameDoesNotStopProfilingAndNothingIsLeftBehind() throws IOException {
        // mech once extracted to <extract-path>/mech-libasyncProfiler-<pid>.so, replacing what was there:
        // a directory at that name, or another user's file in a sticky /tmp, made the copy fail.
        final Path squatter = Files.createDirectory(dir.resolve("mech-libasyncProfiler-" + ProcessHandle.current().pid() + ".so"));
        Files.writeString(squatter.resolve("occupied"), "x");
        assertTrue(NativeProfiler.load(dir).getVersion().length() > 0, "async-profiler answers");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(squatter), left.toList(), "the library and its directory are removed once loaded");
        }
        final Path maps = Path.of("/proc/self/maps");
        Assumptions.assumeTrue(Files.isReadable(maps), "needs /proc/self/maps to see where the library was loaded from");
        final List<String> mapped = Files.readAllLines(maps).stream().filter(line -> line.contains("libasyncProfiler")).toList();
        assertTrue(!mapped.isEmpty() && mapped.stream().allMatch(line -> line.matches(".*/mech-profiler-[^/]+/libasyncProfiler\\.so.*")),
            "loaded from a private directory: " + mapped);
    }
}
