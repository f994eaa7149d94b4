package io.mech.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * What every benchmark needs: the jars under test, a scratch directory and how many rounds.
 *
 * @param mechJar     agent/target/mech.jar
 * @param examplesJar examples/target/mech-examples.jar
 * @param benchJar    the jar holding this bench's host applications
 * @param jHiccup     the reference recorder; empty when its jar is missing, and then its rows are left out
 * @param workDir     where forked JVMs run and log
 * @param rounds      alternating rounds per figure, at least 5
 * @param seconds     how long each kernel runs in the overhead figures
 * @param scrapeSeconds how long the concurrent scrapers run
 * @param loads       the kinds of load the overhead part measures (CPU-bound, allocation-heavy, ...); empty for all
 */
record Setup(Path mechJar, Path examplesJar, Path benchJar, Optional<JHiccup> jHiccup, Path workDir, int rounds, double seconds,
             int scrapeSeconds, Set<String> loads) {

    /** Where mech.jar keeps async-profiler's native library for this machine. */
    private static final String ASYNC_PROFILER = "io/mech/native/linux-x64/libasyncProfiler.so";

    /**
     * @return async-profiler's native library as mech.jar bundles it, copied into the work directory
     *         once, for runs that load it with {@code -agentpath} and no agent of mech's
     * @throws IOException when mech.jar has none for linux-x64
     */
    Path asyncProfiler() throws IOException {
        final Path library = workDir.resolve("libasyncProfiler.so");
        if (!Files.exists(library)) {
            try (JarFile jar = new JarFile(mechJar.toFile())) {
                final JarEntry entry = jar.getJarEntry(ASYNC_PROFILER);
                if (entry == null) {
                    throw new IOException(mechJar + " has no " + ASYNC_PROFILER);
                }
                try (InputStream in = jar.getInputStream(entry)) {
                    Files.copy(in, library);
                }
            }
        }
        return library;
    }
}
