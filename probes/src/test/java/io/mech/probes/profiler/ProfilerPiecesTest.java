package io.mech.probes.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
