package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a user who writes {@code -javaagent:mech.jar} and nothing else gets on a GC-heavy host: a
 * hiccup log in the working directory whose stalls carry the {@code gc} tag, as HdrHistogram's
 * own processor lists them, and mech's {@code mech.Hiccup} events in the user's own recording.
 */
class DefaultsSayWhyTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void aGcHeavyHostUnderTheDefaultsLogsGcTaggedStalls(final Path jdk) throws Exception {
        final Path recording = dir.resolve("user.jfr");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk, "",
            "-Xmx1g", "-XX:StartFlightRecording=filename=" + recording,
            "-jar", Paths.examplesJar().toString(), "gc-pause", "large-live-set", "--seconds", "12"), 120);
        assertEquals(0, result.exit(), result.err());

        final Path log;
        try (Stream<Path> files = Files.list(dir)) {
            final List<Path> logs = files.filter(file -> file.getFileName().toString().matches("hiccup\\..*\\.hlog")).toList();
            assertEquals(1, logs.size(), "one log under the default name: " + logs);
            log = logs.get(0);
        }
        final Forked.Result tags = Forked.run(dir, List.of(Jdks.java(Path.of(System.getProperty("java.home"))),
            "-cp", Paths.codeSource(org.HdrHistogram.Histogram.class).toString(), "org.HdrHistogram.HistogramLogProcessor",
            "-i", log.toString(), "-listtags"), 60);
        assertEquals(0, tags.exit(), tags.err());
        assertTrue(tags.out().lines().anyMatch(line -> line.trim().equals("gc")), "tags listed: " + tags.out());
        assertTrue(HdrTools.max(HdrTools.processLog(log, "-tag", "gc")) >= 2, "the gc tag holds stalls of 2 ms or more");

        final Forked.Result events = Forked.run(dir, List.of(jdk.resolve("bin/jfr").toString(), "summary", recording.toString()), 60);
        assertEquals(0, events.exit(), events.err());
        assertTrue(events.out().lines().anyMatch(line -> line.trim().startsWith("mech.Hiccup ")),
            "mech.Hiccup in the user's recording:\n" + events.out());
        assertTrue(Pattern.compile("(?m)^    gc +[0-9.]+ ms +[1-9][0-9]* stalls? ").matcher(result.err()).find(),
            "the report puts stalls down to gc: " + result.err());
    }
}
