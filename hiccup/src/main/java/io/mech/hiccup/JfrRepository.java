package io.mech.hiccup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The JVM's JFR repository: the directory where running recordings keep their chunks (stack
 * traces, thread names, class names). The JVM makes it, named {@code <yyyy_MM_dd_HH_mm_ss>_<pid>}
 * under {@code java.io.tmpdir}, readable by everyone, and removes it at a normal exit; a host
 * killed with {@code kill -9} leaves it behind for any user to read. When mech's JFR stream is
 * what made the JVM create it, mech makes it readable by its owner only (0700); a repository the
 * JVM had before mech's stream belongs to the user's own recordings and is left as it is.
 *
 * <p>The JVM names the repository in the system property {@code jdk.jfr.repository} once a
 * recording starts (JDK 17 to 25), and a stream starts on its own thread, so the repository is
 * made private from the stream's first flush. Example use, around a {@code RecordingStream}:
 * <pre>{@code
 * JfrRepository repository = JfrRepository.beforeStart();   // before stream.start()
 * stream.onFlush(() -> repository.makePrivate(warnings));
 * }</pre>
 */
public final class JfrRepository {

    /** Where the JVM publishes the repository's path. */
    static final String PROPERTY = "jdk.jfr.repository";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private final boolean existed;
    /** The repository made private, or warned about: each is handled once. Written by the flushing thread. */
    private volatile String handled;

    private JfrRepository(final boolean existed) {
        this.existed = existed;
    }

    /** Notes whether the JVM has a repository before mech's stream starts; call before it starts. */
    public static JfrRepository beforeStart() {
        return new JfrRepository(System.getProperty(PROPERTY) != null);
    }

    /**
     * Makes the repository owner-only if mech's stream made it and it is not yet; cheap when there
     * is nothing to do (one property read), so it may run at every flush of the stream.
     *
     * @param warnings told once, naming the path, when the repository cannot be made private
     */
    public void makePrivate(final Consumer<String> warnings) {
        if (existed) {
            return;
        }
        final String path = System.getProperty(PROPERTY);
        if (path == null || path.equals(handled)) {
            return;
        }
        final Path repository = Path.of(path);
        if (Files.notExists(repository, LinkOption.NOFOLLOW_LINKS)) {
            // Not made yet, or removed by JFR's shutdown hook as the host exits: nothing to protect now.
            return;
        }
        handled = path;
        try {
            if (!repository.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                return;
            }
            if (!Files.isDirectory(repository, LinkOption.NOFOLLOW_LINKS)
                || !repository.getFileName().toString().endsWith("_" + Pid.current())) {
                // Not the directory the JVM makes for itself: mech changes nothing it cannot tell is the JVM's.
                throw new IOException("not a directory named as the JVM names its own");
            }
            Files.setPosixFilePermissions(repository, OWNER_ONLY);
        } catch (final IOException | RuntimeException e) {
            warnings.accept("cannot make the JFR repository " + repository + " private (" + e.getMessage()
                + "); a host killed with -9 leaves its recordings there for other users to read");
        }
    }
}
