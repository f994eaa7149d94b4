package io.mech.hiccup;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens a file mech writes (a hiccup log, a report) without following a symbolic link at its
 * path: a link planted there, in a shared directory say, would have mech truncate and overwrite
 * whatever it points at, with the host's rights. Links in the directories on the way are
 * followed as usual; only the file's own name must not be one.
 */
public final class FileTarget {

    /** The reason given when the path is a symbolic link. */
    public static final String SYMBOLIC_LINK = "a symbolic link, not followed";

    private FileTarget() {
    }

    /**
     * Opens a file for writing, creating it when missing; its content is left as it is, for the
     * caller to truncate (after taking a lock, say).
     *
     * @throws IOException with {@link #SYMBOLIC_LINK} as its message when the path is a symbolic
     *                     link (dangling or not), or as the file system says otherwise
     */
    public static FileChannel open(final Path path) throws IOException {
        if (Files.isSymbolicLink(path)) {
            throw new IOException(SYMBOLIC_LINK);
        }
        try {
            // NOFOLLOW_LINKS (O_NOFOLLOW) closes the gap between the check and the open.
            return FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        } catch (final FileSystemException e) {
            if (Files.isSymbolicLink(path)) {
                throw new IOException(SYMBOLIC_LINK, e);
            }
            throw e;
        }
    }
}
