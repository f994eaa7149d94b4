package io.mech.replay;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

/** Opens a log named on the command line: a file or standard input, gzip-compressed or not. */
final class LogInput {

    private LogInput() {
    }

    /**
     * Opens the log, recognising gzip by its magic bytes rather than by the file name.
     *
     * @param name  a path, or {@code -} for {@code stdin}
     * @param stdin standard input
     * @return the decompressed bytes
     * @throws IOException with a message fit for the user when the log cannot be read
     */
    static InputStream open(final String name, final InputStream stdin) throws IOException {
        final InputStream raw;
        if (name.equals("-")) {
            raw = stdin;
        } else {
            final Path path = Path.of(name);
            if (Files.isDirectory(path)) {
                throw new IOException(name + ": is a directory, not a log");
            }
            try {
                raw = Files.newInputStream(path);
            } catch (final NoSuchFileException e) {
                throw new IOException(name + ": no such file", e);
            } catch (final IOException | SecurityException e) {
                throw new IOException(name + ": cannot be read (" + e + ")", e);
            }
        }
        final BufferedInputStream in = new BufferedInputStream(raw, 64 * 1024);
        in.mark(2);
        final int first = in.read();
        final int second = in.read();
        in.reset();
        if (first == 0x1f && second == 0x8b) {
            try {
                return new GZIPInputStream(in, 64 * 1024);
            } catch (final IOException e) {
                in.close();
                throw new IOException(name + ": damaged gzip header (" + e.getMessage() + ")", e);
            }
        }
        return in;
    }
}
