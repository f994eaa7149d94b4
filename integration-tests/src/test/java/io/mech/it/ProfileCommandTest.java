package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import io.mech.testing.JsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code java -jar mech.jar profile <pid>}: an async-profiler flame graph of a running JVM that
 * names the method its threads contend in; a library that cannot load is one line, and the
 * target runs on.
 */
class ProfileCommandTest {

    /** The method the contended-lock kernel's threads block in. */
    private static final String CONTENDED_METHOD = "SynchronizedCounter.increment";

    @TempDir
    Path dir;

    private Forked contendedKernel(final Path jdk) throws Exception {
        final Forked kernel = Forked.start(dir, List.of(Jdks.java(jdk), "-jar", Paths.examplesJar().toString(),
            "locks", "synchronized-contended", "--seconds", "6"));
        Thread.sleep(1500);
        return kernel;
    }

    private static List<String> profile(final Path jdk, final long pid, final String... options) {
        final List<String> command = new ArrayList<>(List.of(Jdks.java(jdk), "-jar", Paths.mechJar().toString(),
            "profile", Long.toString(pid)));
        command.addAll(List.of(options));
        return command;
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aFlameGraphOfARunningJvmShowsItsContendedMethod(final Path jdk) throws Exception {
        final Forked kernel = contendedKernel(jdk);
        final Path out = dir.resolve("captures");
        final Forked.Result result = Forked.run(dir, profile(jdk, kernel.pid(), "--duration", "2s", "--dir", out.toString()), 60);
        assertEquals(0, result.exit(), result.err());
        final List<Path> graphs;
        try (Stream<Path> files = Files.list(out)) {
            graphs = files.filter(file -> file.toString().endsWith(".html")).toList();
        }
        assertEquals(1, graphs.size(), "one flame graph: " + graphs);
        final Path graph = graphs.get(0);
        assertTrue(graph.getFileName().toString().contains("." + kernel.pid() + "."), "named after the target: " + graph);
        assertTrue(result.out().contains(graph.toString()), "the command says where it went: " + result.out());
        assertTrue(Files.readString(graph).contains(CONTENDED_METHOD), "the flame graph holds " + CONTENDED_METHOD);
        final Map<String, Object> metadata = JsonReader.object(Files.readString(dir.resolve("captures").resolve(
            graph.getFileName().toString().replace(".html", ".json"))));
        assertTrue(metadata.get("event").equals("wall") && metadata.get("trigger").equals("ondemand")
            && metadata.get("engine").equals("wall"), metadata.toString());
        final Path jfr = out.resolve(graph.getFileName().toString().replace(".html", ".jfr"));
        assertTrue(Files.size(jfr) > 10_000 && result.out().contains(jfr.getFileName().toString()), "a JFR file beside the flame graph, named");
        assertEquals(0, kernel.await(60).exit(), "the target finishes normally");
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void anUnusableExtractPathIsOneLineAndTheTargetRunsOn(final Path jdk) throws Exception {
        final Forked kernel = contendedKernel(jdk);
        final Path notADirectory = Files.writeString(dir.resolve("a-file"), "x");
        final Forked.Result result = Forked.run(dir, profile(jdk, kernel.pid(), "--duration", "1s",
            "--dir", dir.resolve("captures").toString(), "--extract-path", notADirectory.toString()), 60);
        assertEquals(1, result.exit(), result.err());
        assertEquals(1, result.err().lines().count(), result.err());
        assertTrue(result.err().contains("cannot extract") && result.err().contains(notADirectory.toString()), result.err());
        final Forked.Result finished = kernel.await(60);
        assertEquals(0, finished.exit(), finished.err());
        assertEquals(1, finished.err().lines().filter(line -> line.startsWith("mech: ")).count(),
            "the target prints one warning: " + finished.err());
    }

    /**
     * A target whose own mech runs the profiler (profiler=on) holds async-profiler for its
     * time-to-safepoint sampling: it lends it to the command's capture and samples on afterwards.
     */
    @Test
    void aTargetSamplingTimeToSafepointLendsAsyncProfilerToTheCommand() throws Exception {
        final Path jdk = Path.of(System.getProperty("java.home"));
        final Path json = dir.resolve("report.json");
        final Forked kernel = Forked.start(dir, Forked.javaWithMech(jdk,
            "profiler=on,hiccup.profiler-threshold=600s,prometheus=off,report=off,hiccup.log=,report.interval=1s,report.json=" + json,
            // Longer than the test needs, and ended by it: a kernel that ended on its own while a busy
            // machine slowed the first culprits ended during the command's attach (Premature EOF).
            "-Xmx1g", "-jar", Paths.examplesJar().toString(), "safepoint-delay:bulk-copy", "--seconds", "120"));
        final long before = awaitCulpritSamples(json, 1);
        final Forked.Result result = Forked.run(dir, profile(jdk, kernel.pid(), "--duration", "1s", "--dir", dir.resolve("captures").toString()), 60);
        assertEquals(0, result.exit(), result.err());
        assertTrue(result.out().contains(".html"), result.out());
        final long during = awaitCulpritSamples(json, 0);
        assertTrue(awaitCulpritSamples(json, during + 100) > before, "sampled on after the capture: " + Files.readString(json));
        kernel.terminate();
        final Forked.Result finished = kernel.await(60);
        assertEquals(143, finished.exit(), "ran on until ended by SIGTERM: " + finished.err());
    }

    /**
     * Waits, 30 s at most, until the periodic JSON report names a culprit from at least that many
     * samples (none: until the file holds a whole report, which mech rewrites in place).
     */
    private static long awaitCulpritSamples(final Path json, final long atLeast) throws Exception {
        try {
            return Await.value("a culprit from " + atLeast + " samples", Duration.ofSeconds(30), Duration.ofMillis(100), () -> {
                final long samples = ReportRows.byCause(Files.readString(json), "culprit_samples").values().stream().findFirst()
                    .orElse(0.0).longValue();
                return samples >= atLeast ? samples : null;
            });
        } catch (final AssertionError none) {
            throw new AssertionError(none.getMessage() + ": " + (Files.exists(json) ? Files.readString(json) : "no report"), none);
        }
    }

    @Test
    void anEventThatNeedsHardwareCountersIsRefusedBeforeAttaching() throws Exception {
        final Path jdk = Path.of(System.getProperty("java.home"));
        final Forked.Result result = Forked.run(dir, profile(jdk, ProcessHandle.current().pid(), "--event", "cycles"), 30);
        assertEquals(2, result.exit());
        assertTrue(result.err().contains("event must be wall, cpu, lock or alloc, got 'cycles'"), result.err());
    }
}
