package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * async-profiler's native library is extracted into a directory made for it, not at a name
 * another user could take first: a file squatting the old name does not stop profiling.
 */
@QuietHosts
class ProfilerLibraryTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aFileAtTheOldPredictableNameDoesNotStopProfiling(final Path jdk) throws Exception {
        final Path maps = Path.of("/proc/self/maps");
        Assumptions.assumeTrue(Files.isReadable(maps), "needs /proc to see where the target mapped the library");
        final Path log = dir.resolve("target.hlog");
        final Forked target = Forked.start(dir, Forked.javaWithMech(jdk, "prometheus=off,probes.locks=off,hiccup.interval=200ms,hiccup.log=" + log,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "8000"));
        HdrTools.awaitFirstInterval(log);
        final Path extract = Files.createDirectories(dir.resolve("extract"));
        // Where mech once extracted to, replacing what was there: a directory at that name (or, in a
        // sticky /tmp, another user's file) made the copy fail and switched profiling off.
        final Path squatter = Files.createDirectory(extract.resolve("mech-libasyncProfiler-" + target.pid() + ".so"));
        Files.writeString(squatter.resolve("occupied"), "x");

        final Path captures = dir.resolve("captures");
        final Forked.Result profiled = Forked.run(dir, List.of(Jdks.java(jdk), "-jar", Paths.mechJar().toString(), "profile",
            Long.toString(target.pid()), "--duration", "1s", "--dir", captures.toString(), "--extract-path", extract.toString()), 60);
        assertEquals(0, profiled.exit(), profiled.err());
        try (Stream<Path> graphs = Files.list(captures)) {
            assertEquals(1, graphs.filter(file -> file.toString().endsWith(".html")).count(), "a flame graph");
        }
        final List<String> mapped = Files.readAllLines(Path.of("/proc/" + target.pid() + "/maps")).stream()
            .filter(line -> line.contains("libasyncProfiler")).toList();
        assertTrue(!mapped.isEmpty() && mapped.stream().allMatch(line -> line.contains(extract + "/mech-profiler-")),
            "loaded from a directory made for it under the extract path: " + mapped);
        try (Stream<Path> left = Files.list(extract)) {
            assertEquals(List.of(squatter), left.toList(), "the library and its directory are gone once loaded");
        }
        assertEquals(0, target.await(30).exit());
    }
}
