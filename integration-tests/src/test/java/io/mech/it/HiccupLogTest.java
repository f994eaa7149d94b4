package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The hiccup log of a forked JVM, stopped by SIGSTOP mid-run, as HdrHistogram's own processor reads it. */
class HiccupLogTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aStoppedJvmShowsItsStopAndKeepsItsLastPartialInterval(final Path jdk) throws Exception {
        final Path log = dir.resolve("stop.%pid.hlog");
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk, "hiccup.interval=1s,hiccup.log=" + log,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "4500"));
        final Path written = dir.resolve("stop." + host.pid() + ".hlog");
        HdrTools.awaitFirstInterval(written);
        final long stopMillis = host.stopFor(Forked.STALL_MILLIS);
        final Forked.Result result = host.await(30);
        assertEquals(0, result.exit(), result.err());

        assertTrue(Files.exists(written), "%pid expands to the host's pid");
        final double max = HdrTools.max(HdrTools.processLog(written));
        assertTrue(max >= 300 && max <= stopMillis + 30, "max " + max + " ms for a stop of " + stopMillis + " ms");

        final List<String[]> intervals = HdrTools.intervalLines(written);
        assertTrue(intervals.size() >= 4, "intervals: " + intervals.size());
        final String[] last = intervals.get(intervals.size() - 1);
        final double lastLength = Double.parseDouble(last[1]);
        final double end = Double.parseDouble(last[0]) + lastLength;
        assertTrue(lastLength > 0 && lastLength < 1.0, "the last interval is partial: " + lastLength + " s");
        assertTrue(end >= 4.0, "the log reaches the exit: " + end + " s");
    }
}
