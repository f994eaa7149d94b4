package io.mech.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The logs the command line names, expanded: files as given; a directory as the logs in it
 * ({@code *.hlog} and {@code *.hlog.gz}, in name order), and in its subdirectories too with
 * {@code --recursive}; a quoted glob such as {@code 'logs/*.hlog'} as the files it matches (for
 * argument lists longer than the shell takes). Each control JVM's log, {@code <log>.c}, goes with
 * its host log, named or found beside it, and is never merged with the hosts.
 *
 * @param hosts    the logs to merge, each once, in command-line order
 * @param controls the control logs found for them
 */
record Inputs(List<String> hosts, List<String> controls) {

    /** The suffix of a control JVM's log. */
    static final String CONTROL_SUFFIX = ".c";

    /**
     * Expands the command line's inputs.
     *
     * @param given     the inputs as given, {@code -} for standard input
     * @param recursive whether directories are walked into their subdirectories
     * @throws IOException naming the input when a directory or glob yields no log, or cannot be listed
     */
    static Inputs expand(final List<String> given, final boolean recursive) throws IOException {
        final Set<String> hosts = new LinkedHashSet<>();
        for (final String name : given) {
            if (name.equals("-")) {
                hosts.add(name);
                continue;
            }
            final Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                final List<String> logs = list(path, recursive ? Integer.MAX_VALUE : 1, Inputs::isLogName);
                if (logs.isEmpty()) {
                    throw new IOException(name + ": no *.hlog or *.hlog.gz file in this directory"
                        + (recursive ? " or below it" : " (--recursive looks in its subdirectories)"));
                }
                hosts.addAll(logs);
            } else if (!Files.exists(path) && isGlob(name)) {
                hosts.addAll(glob(name));
            } else {
                hosts.add(name);
            }
        }
        final List<String> controls = new ArrayList<>();
        final List<String> merged = new ArrayList<>();
        for (final String host : hosts) {
            if (host.endsWith(CONTROL_SUFFIX) && hosts.contains(host.substring(0, host.length() - CONTROL_SUFFIX.length()))) {
                continue;
            }
            merged.add(host);
            final String control = host + CONTROL_SUFFIX;
            if (!host.equals("-") && (hosts.contains(control) || Files.isRegularFile(Path.of(control)))) {
                controls.add(control);
            }
        }
        return new Inputs(merged, controls);
    }

    private static boolean isLogName(final Path file) {
        final String name = file.getFileName().toString();
        return name.endsWith(".hlog") || name.endsWith(".hlog.gz");
    }

    private static boolean isGlob(final String name) {
        return name.indexOf('*') >= 0 || name.indexOf('?') >= 0 || name.indexOf('[') >= 0 || name.indexOf('{') >= 0;
    }

    /** The regular files (links followed) under {@code dir} to the depth given that {@code accept} takes, sorted. */
    private static List<String> list(final Path dir, final int depth, final Predicate<Path> accept)
        throws IOException {
        try (Stream<Path> files = Files.walk(dir, depth, FileVisitOption.FOLLOW_LINKS)) {
            return files.filter(Files::isRegularFile).filter(accept).map(Path::toString).sorted().toList();
        } catch (final UncheckedIOException e) {
            throw new IOException(dir + ": cannot be listed (" + e.getCause().getMessage() + ")", e.getCause());
        } catch (final IOException e) {
            throw new IOException(dir + ": cannot be listed (" + e.getMessage() + ")", e);
        }
    }

    /** The files a glob matches, from the deepest directory of its name without a glob character. */
    private static List<String> glob(final String pattern) throws IOException {
        final Path whole = Path.of(pattern);
        Path base = whole.isAbsolute() ? whole.getRoot() : Path.of("");
        int fixed = 0;
        for (final Path part : whole) {
            if (isGlob(part.toString()) || fixed == whole.getNameCount() - 1) {
                break;
            }
            base = base.resolve(part);
            fixed++;
        }
        final int depth = pattern.contains("**") ? Integer.MAX_VALUE : whole.getNameCount() - fixed;
        final PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        final Path start = base.toString().isEmpty() ? Path.of(".") : base;
        final List<String> matches = new ArrayList<>();
        if (Files.isDirectory(start)) {
            for (final String file : list(start, depth, p -> true)) {
                final Path asGiven = base.toString().isEmpty() ? Path.of(".").relativize(Path.of(file)) : Path.of(file);
                if (matcher.matches(asGiven)) {
                    matches.add(asGiven.toString());
                }
            }
        }
        if (matches.isEmpty()) {
            throw new IOException(pattern + ": no such file, and no file matches it as a pattern");
        }
        return matches;
    }
}
