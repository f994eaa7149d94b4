package io.mech.probes.profiler;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import one.profiler.AsyncProfiler;

/**
 * async-profiler's native library, loaded on first use.
 *
 * <p>mech extracts the library itself instead of letting {@code AsyncProfiler.getInstance()} do
 * it: inside mech.jar the {@code one.profiler} package is relocated, and so is the name of the
 * property ({@code one.profiler.extractPath}) through which async-profiler would be told where to
 * extract, so a host's noexec temporary directory could not be worked around any other way.
 *
 * <p>The library is written into a directory of its own, made with a random name and
 * owner-only permissions, and both are removed as soon as the library is loaded: at a name
 * anyone can predict in a shared temporary directory, another user could create the file first
 * and so switch profiling off; in a directory only this user can enter, no one else can put or
 * change a file before it loads.
 */
public final class NativeProfiler {

    private static final String LIBRARY = "libasyncProfiler.so";

    private NativeProfiler() {
    }

    /**
     * Extracts the library for this platform into a new private directory and loads it.
     *
     * @param extractDir where the private directory is made; it must allow executing mapped files
     * @return the loaded profiler
     * @throws IOException when this platform has no library or it cannot be written or loaded;
     *                     the message names the path and the reason
     */
    public static AsyncProfiler load(final Path extractDir) throws IOException {
        final Path library = extract(extractDir);
        try {
            return AsyncProfiler.getInstance(library.toAbsolutePath().toString());
        } catch (final UnsatisfiedLinkError | RuntimeException e) {
            throw new IOException("cannot load " + library + " (a noexec mount? set profiler.extract-path): " + e.getMessage(), e);
        } finally {
            // A loaded library stays mapped; neither the file nor its directory is needed once it is.
            Files.deleteIfExists(library);
            Files.deleteIfExists(library.getParent());
        }
    }

    /**
     * Writes this platform's library into a directory made for it under {@code extractDir}:
     * new (never one that was there before), named at random, readable only by this user.
     *
     * @return the library; the caller removes it and its directory
     */
    static Path extract(final Path extractDir) throws IOException {
        final String resource = libraryResource();
        try (InputStream in = AsyncProfiler.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("mech.jar carries no " + resource);
            }
            Files.createDirectories(extractDir);
            final Path dir = privateDirectory(extractDir);
            final Path library = dir.resolve(LIBRARY);
            try {
                Files.copy(in, library);
            } catch (final IOException e) {
                Files.deleteIfExists(library);
                Files.deleteIfExists(dir);
                throw e;
            }
            return library;
        } catch (final IOException e) {
            throw new IOException("cannot extract async-profiler's library to " + extractDir + ": " + e, e);
        }
    }

    /** A new directory with a random name, mode 0700 where the file system has POSIX permissions. */
    private static Path privateDirectory(final Path parent) throws IOException {
        if (parent.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return Files.createTempDirectory(parent, "mech-profiler-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        return Files.createTempDirectory(parent, "mech-profiler-");
    }

    /**
     * This platform's library as a class-path resource, named as in async-profiler's jar. Each
     * name is one whole string constant, because mech.jar's shading moves the libraries under
     * {@code io/mech/native/} and rewrites exactly these constants to match; tests that run
     * against async-profiler's own jar find them under the names written here.
     */
    static String libraryResource() throws IOException {
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (os.contains("mac")) {
            return "macos/libasyncProfiler.so";
        }
        if (os.contains("linux")) {
            if (arch.equals("amd64") || arch.equals("x86_64")) {
                return "linux-x64/libasyncProfiler.so";
            }
            if (arch.equals("aarch64") || arch.equals("arm64")) {
                return "linux-arm64/libasyncProfiler.so";
            }
        }
        throw new IOException("async-profiler has no library for " + os + "/" + arch);
    }
}
