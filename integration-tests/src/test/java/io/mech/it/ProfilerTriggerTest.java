package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import io.mech.testing.JsonReader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code profiler=on}: async-profiler captures taken when mech sees a long hiccup or lock
 * blocking, named in the report, held to the cooldown and to max-files; a library that cannot
 * load turns the profiler off with one warning while the host and its hiccup log carry on.
 */
class ProfilerTriggerTest {

    @TempDir
    Path dir;

    private List<Path> graphs(final Path captures) throws Exception {
        try (Stream<Path> files = Files.list(captures)) {
            return files.filter(file -> file.toString().endsWith(".html")).sorted().toList();
        }
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aStoppedJvmIsCapturedOncePerCooldownAndOldCapturesMakeRoom(final Path jdk) throws Exception {
        final Path captures = Files.createDirectories(dir.resolve("captures"));
        for (final String old : List.of("20200101-000001", "20200101-000002", "20200101-000003")) {
            Files.writeString(captures.resolve("capture." + old + ".1.hiccup.html"), "old");
            Files.writeString(captures.resolve("capture." + old + ".1.hiccup.json"), "{}");
        }
        final Path unrelated = Files.writeString(captures.resolve("notes.html"), "not mech's");
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk,
            "profiler=on,profiler.seconds=1s,profiler.max-files=2,profiler.dir=" + captures + ",probes.locks=off,prometheus=off,hiccup.log=",
            "-jar", Paths.examplesJar().toString(), "locks", "synchronized-single", "--seconds", "6"));
        host.awaitMechStarted(jdk);
        host.stopFor(Forked.STALL_MILLIS);
        Thread.sleep(1500);
        host.stopFor(Forked.STALL_MILLIS);
        final Forked.Result result = host.await(60);
        assertEquals(0, result.exit(), result.err());

        final List<Path> kept = graphs(captures);
        assertEquals(3, kept.size(), "max-files 2 keeps the newest old capture and the new one, and leaves notes.html: " + kept);
        assertTrue(Files.exists(unrelated));
        assertEquals("capture.20200101-000003.1.hiccup.html", kept.get(0).getFileName().toString());
        assertTrue(Files.notExists(captures.resolve("capture.20200101-000001.1.hiccup.json")), "an old capture goes with its metadata");
        final Path taken = kept.get(1);
        assertTrue(taken.getFileName().toString().matches("capture\\.\\d{8}-\\d{6}\\." + host.pid() + "\\.hiccup\\.html"), taken.toString());
        assertTrue(Files.size(taken) > 1000, "a flame graph, not an empty file");
        assertTrue(result.err().contains("hiccup (hiccup of ") && result.err().contains(taken.toString()),
            "the report names the capture: " + result.err());
        assertTrue(result.err().contains("1 triggers came inside the cooldown"), "the second stop is inside the 60 s cooldown: " + result.err());
    }

    /** On the newest JDK: an 18 s host, too long to run on each within CI's time; the trigger is mech's own code on every JDK. */
    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#newest")
    void lockBlockingCapturesTheContendedMethod(final Path jdk) throws Exception {
        final Path captures = dir.resolve("captures");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk,
            "profiler=on,profiler.seconds=11s,probes.locks.profiler-threshold=1ms,hiccup.profiler-threshold=1m,profiler.dir=" + captures
                + ",prometheus=off,hiccup.log=",
            "-jar", Paths.examplesJar().toString(), "locks", "synchronized-contended", "--seconds", "18"), 60);
        assertEquals(0, result.exit(), result.err());
        final List<Path> kept = graphs(captures);
        assertEquals(1, kept.size(), "one capture inside the cooldown: " + kept);
        assertTrue(kept.get(0).getFileName().toString().endsWith(".lock.html"), kept.toString());
        assertTrue(Files.readString(kept.get(0)).contains("SynchronizedCounter.increment"), "the flame graph holds the contended method");
        assertTrue(result.err().contains("lock (") && result.err().contains("SynchronizedCounter"), result.err());
        // 11 s of capture span one period (10 s) of mech.LockContention
        final Set<String> events = eventNames(captureJfr(kept.get(0)));
        assertTrue(events.contains("mech.LockContention") && events.contains("jdk.JavaMonitorEnter"),
            "the capture's JFR file holds mech's events and the JDK's: " + events);
        final Map<String, Object> metadata = JsonReader.object(Files.readString(sibling(kept.get(0), ".json")));
        assertTrue(metadata.get("mode").equals("trigger") && metadata.get("engine").equals("wall"), metadata.toString());
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void continuousModeWritesTheWindowAroundAStall(final Path jdk) throws Exception {
        final Path captures = dir.resolve("captures");
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk,
            "profiler=on,profiler.mode=continuous,profiler.seconds=1s,profiler.dir=" + captures + ",probes.locks=off,prometheus=off,hiccup.log=",
            "-jar", Paths.examplesJar().toString(), "locks", "synchronized-single", "--seconds", "7"));
        host.awaitMechStarted(jdk);
        awaitFinishedSegment(captures.resolve(".continuous." + host.pid()));
        host.stopFor(Forked.STALL_MILLIS);
        final Forked.Result result = host.await(60);
        assertEquals(0, result.exit(), result.err());
        final List<Path> kept = graphs(captures);
        assertEquals(1, kept.size(), kept + "\n" + result.err());
        assertTrue(Files.readString(kept.get(0)).contains("SynchronizedCounter.increment"), "the kernel's method is in the window");
        final Map<String, Object> metadata = JsonReader.object(Files.readString(sibling(kept.get(0), ".json")));
        assertEquals("continuous", metadata.get("mode"), metadata.toString());
        final long millis = ((BigDecimal) metadata.get("millis")).longValueExact();
        assertTrue(millis >= 1900, "the window holds the segment before the stall's and the stall's own: " + metadata);
        final Set<String> events = eventNames(captureJfr(kept.get(0)));
        // Each chunk of the JDK's recorder begins with the JVM's flags; async-profiler writes none of
        // them (it does write jdk.CPULoad, once held for the JDK's: one 2 s window had none, ci30)
        assertTrue(events.contains("jdk.BooleanFlag"), "the JDK's events are synchronised into the window: " + events);
        try (Stream<Path> files = Files.list(captures)) {
            assertEquals(List.of(), files.filter(file -> file.getFileName().toString().startsWith(".continuous")).toList(),
                "the segments are gone at exit");
        }
        assertTrue(result.err().contains("hiccup (hiccup of ") && result.err().contains(kept.get(0).toString()), result.err());
    }

    /** Waits until the continuous profile has finished its first segment and begun the next. */
    private static void awaitFinishedSegment(final Path segments) throws InterruptedException {
        Await.until("a second segment in " + segments, Duration.ofSeconds(20), () -> Files.exists(segments.resolve("segment.1.jfr")));
    }

    private static Path sibling(final Path html, final String extension) {
        return html.resolveSibling(html.getFileName().toString().replace(".html", extension));
    }

    private static Path captureJfr(final Path html) {
        final Path jfr = sibling(html, ".jfr");
        assertTrue(Files.isRegularFile(jfr), "a JFR file beside " + html);
        return jfr;
    }

    private static Set<String> eventNames(final Path jfr) throws Exception {
        final Set<String> names = new TreeSet<>();
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                names.add(file.readEvent().getEventType().getName());
            }
        }
        return names;
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void anUnusableExtractPathTurnsTheProfilerOffWithOneWarning(final Path jdk) throws Exception {
        final Path notADirectory = Files.writeString(dir.resolve("a-file"), "x");
        final Path log = dir.resolve("h.hlog");
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk,
            "profiler=on,profiler.seconds=1s,profiler.extract-path=" + notADirectory + ",profiler.dir=" + dir.resolve("captures")
                + ",probes.locks=off,prometheus=off,hiccup.interval=1s,hiccup.log=" + log,
            "-jar", Paths.examplesJar().toString(), "locks", "synchronized-single", "--seconds", "4"));
        host.awaitMechStarted(jdk);
        host.stopFor(Forked.STALL_MILLIS);
        final Forked.Result result = host.await(60);
        assertEquals(0, result.exit(), result.err());
        final List<String> warnings = result.err().lines().filter(line -> line.startsWith("mech: ")).toList();
        assertEquals(1, warnings.size(), result.err());
        assertTrue(warnings.get(0).contains("profiler off") && warnings.get(0).contains(notADirectory.toString()), warnings.get(0));
        assertTrue(HdrTools.intervalLines(log).size() >= 3, "hiccups are still logged");
        assertTrue(HdrTools.max(HdrTools.processLog(log)) >= 300, "the stop is in the log");
    }
}
