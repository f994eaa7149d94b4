package io.mech.probes.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.stream.Stream;

/**
 * The captures in a directory: how a new one and the files beside it are named, and removing the
 * oldest past a limit. Only files named as mech names captures are counted or removed.
 */
public final class CaptureFiles {

    private static final String PREFIX = "capture.";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    private CaptureFiles() {
    }

    /** {@code capture.<yyyyMMdd-HHmmss>.<pid>.<trigger>.html}: sorts by time, says why. */
    public static Path name(final Path dir, final LocalDateTime when, final long pid, final String trigger) {
        return dir.resolve(PREFIX + when.format(STAMP) + "." + pid + "." + trigger + ".html");
    }

    /** The JFR file beside a flame graph. */
    public static Path jfrOf(final Path html) {
        return sibling(html, ".jfr");
    }

    /** The metadata file beside a flame graph. */
    public static Path metadataOf(final Path html) {
        return sibling(html, ".json");
    }

    private static Path sibling(final Path html, final String extension) {
        final String name = html.getFileName().toString();
        return html.resolveSibling((name.endsWith(".html") ? name.substring(0, name.length() - 5) : name) + extension);
    }

    /**
     * Removes the oldest captures (flame graph, JFR file and metadata) until at most {@code keep} remain.
     *
     * @return the flame graphs removed
     */
    public static List<Path> prune(final Path dir, final int keep) throws IOException {
        final List<Path> graphs;
        try (Stream<Path> files = Files.list(dir)) {
            graphs = files.filter(CaptureFiles::isCapture).sorted().toList();
        }
        final List<Path> removed = graphs.subList(0, Math.max(0, graphs.size() - keep));
        for (final Path graph : removed) {
            Files.deleteIfExists(metadataOf(graph));
            Files.deleteIfExists(jfrOf(graph));
            Files.deleteIfExists(graph);
        }
        return removed;
    }

    private static boolean isCapture(final Path file) {
        final String name = file.getFileName().toString();
        return name.startsWith(PREFIX) && name.endsWith(".html");
    }
}
