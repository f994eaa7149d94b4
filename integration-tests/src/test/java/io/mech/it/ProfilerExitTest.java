package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A capture still sampling when the host exits is cut short and written as far as it got, or,
 * when that cannot be done in the shutdown's time, reported unfinished and its files removed:
 * never a lone JFR file under "no capture".
 */
@QuietHosts
class ProfilerExitTest {

    @TempDir
    Path dir;

    private static List<Path> files(final Path captures) throws Exception {
        if (!Files.isDirectory(captures)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(captures)) {
            return files.sorted().toList();
        }
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aCaptureInFlightAtExitIsCutShortAndSaidSo(final Path jdk) throws Exception {
        final Path captures = dir.resolve("captures");
        final Path log = dir.resolve("h.hlog");
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk,
            "profiler=on,profiler.seconds=60s,profiler.dir=" + captures + ",probes.locks=off,prometheus=off,hiccup.interval=200ms,hiccup.log=" + log,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "120000"));
        HdrTools.awaitFirstInterval(log);
        host.stopFor(Forked.STALL_MILLIS);
        Await.until("a capture the stop started", Duration.ofSeconds(30),
            () -> files(captures).stream().anyMatch(file -> file.toString().endsWith(".jfr")));
        host.terminate();
        final Forked.Result result = host.await(30);
        assertEquals(143, result.exit(), "ended by SIGTERM: " + result.err());

        final String err = result.err();
        assertFalse(err.contains("no capture"), err);
        final List<String> section = err.lines().filter(line -> line.startsWith("    ") && line.contains(" hiccup (hiccup of ")).toList();
        assertEquals(1, section.size(), err);
        final String line = section.get(0);
        assertTrue(line.contains("cut short at exit"), line);
        if (line.contains("; its partial files were removed: ") || line.contains("; nothing on disk")) {
            // Not written, in time or at all: the line says why, and whatever it had written is gone.
            assertEquals(List.of(), files(captures), "its partial files are removed: " + line);
        } else {
            final Path html = Path.of(line.substring(line.indexOf("): ") + 3, line.indexOf(" and ")));
            final String base = html.getFileName().toString().replace(".html", "");
            assertEquals(List.of(base + ".html", base + ".jfr", base + ".json"),
                files(captures).stream().map(file -> file.getFileName().toString()).toList(), "one whole capture: " + line);
            assertTrue(Files.readString(html).contains("</html>"), "a whole flame graph");
            assertTrue(Files.readString(captures.resolve(base + ".json")).contains("\"cutShort\":true"));
        }
        final List<String> warnings = new ArrayList<>(result.mechLines());
        warnings.removeIf(each -> each.startsWith("mech report"));
        assertEquals(List.of(), warnings, err);
    }
}
