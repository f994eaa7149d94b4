package io.mech.probes.profiler;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import one.profiler.AsyncProfiler;

/**
 * async-profiler's native library, loaded on first use.
 *
 * <p>mech extracts the library itself instead of letting {@code AsyncProfiler.getInstance()} do
 * it: inside mech.jar the {@code one.profiler} package is relocated, and so is the name of the
 * property ({@code one.profiler.extractPath}) through which async-profiler would be told where to
 * extract, so a host's noexec temporary directory could not be worked around any other way.
 */
public final class NativeProfiler {

    private NativeProfiler() {
    }

    /**
     * Extracts the library for this platform into a directory and loads it.
     *
     * @param extractDir where the library is written; it must allow executing mapped files
     * @return the loaded profiler
     * @throws IOException when this platform has no library or it cannot be written or loaded;
     *                     the message names the path and the reason
     */
    public static AsyncProfiler load(final Path extractDir) throws IOException {
        final String resource = platformFolder() + "/libasyncProfiler.so";
        final Path library = extractDir.resolve("mech-libasyncProfiler-" + ProcessHandle.current().pid() + ".so");
        try (InputStream in = AsyncProfiler.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("mech.jar carries no " + resource);
            }
            Files.createDirectories(extractDir);
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
        } catch (final IOException e) {
            throw new IOException("cannot extract async-profiler's library to " + extractDir + ": " + e, e);
        }
        try {
            return AsyncProfiler.getInstance(library.toAbsolutePath().toString());
        } catch (final UnsatisfiedLinkError | RuntimeException e) {
            throw new IOException("cannot load " + library + " (a noexec mount? set profiler.extract-path): " + e.getMessage(), e);
        } finally {
            // A loaded library stays mapped; the file is not needed once it is.
            Files.deleteIfExists(library);
        }
    }

    /** The jar folder of this platform's library, named as in async-profiler's jar. */
    static String platformFolder() throws IOException {
        final String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        final String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (os.contains("mac")) {
            return "macos";
        }
        if (os.contains("linux")) {
            if (arch.equals("amd64") || arch.equals("x86_64")) {
                return "linux-x64";
            }
            if (arch.equals("aarch64") || arch.equals("arm64")) {
                return "linux-arm64";
            }
        }
        throw new IOException("async-profiler has no library for " + os + "/" + arch);
    }
}
