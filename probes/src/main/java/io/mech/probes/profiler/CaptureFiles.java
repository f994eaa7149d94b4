package io.mech.probes.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The captures in a directory: how a new one and the files beside it are named, and removing the
 * oldest past a limit. Only flame graphs named exactly as {@link #name} names them, and the JFR
 * file and metadata beside each, are counted or removed: the directory may hold the user's own
 * files, and a name that merely starts like a capture's ({@code capture.0-my-notes.html}) is one.
 */
public final class CaptureFiles {

    private static final String PREFIX = "capture.";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
    /** A trigger's name: it becomes part of a file name that {@link #CAPTURE} must match again. */
    private static final Pattern TRIGGER = Pattern.compile("[a-z]+");
    /** {@code capture.<yyyyMMdd-HHmmss>.<pid>.<trigger>.html}, and nothing else. */
    private static final Pattern CAPTURE = Pattern.compile("capture\\.\\d{8}-\\d{6}\\.\\d+\\.[a-z]+\\.html");

    private CaptureFiles() {
    }

    /**
     * {@code capture.<yyyyMMdd-HHmmss>.<pid>.<trigger>.html}: sorts by time, says why.
     *
     * @throws IllegalArgumentException when the trigger is not a lower-case word, whose capture
     *                                  {@link #prune} would not know as mech's
     */
    public static Path name(final Path dir, final LocalDateTime when, final long pid, final String trigger) {
        if (!TRIGGER.matcher(trigger).matches()) {
            throw new IllegalArgumentException("a trigger's name must be a lower-case word, got '" + trigger + "'");
        }
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
        return CAPTURE.matcher(file.getFileName().toString()).matches() && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS);
    }
}
