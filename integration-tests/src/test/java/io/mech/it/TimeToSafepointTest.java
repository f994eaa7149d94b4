package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code safepoint-delay} kernel under mech's defaults: a thread in one long
 * {@code System.arraycopy} holds every safepoint that another thread asks for, and the wait is
 * put down to {@code ttsp}, in the report and in the log's {@code Tag=ttsp} lines; the twin,
 * which copies the same bytes a megabyte at a time, has a small fraction of that wait.
 */
class TimeToSafepointTest {

    private static final Pattern TTSP = Pattern.compile("\\{\"cause\":\"ttsp\",\"stall_ms\":([0-9.]+),\"stalls\":([0-9]+)");

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void aThreadThatCannotReachASafepointIsTtspAndItsTwinIsNot(final Path jdk) throws Exception {
        final double[] bulk = ttsp(jdk, "bulk-copy");
        final double[] chunked = ttsp(jdk, "chunked-copy");
        assertTrue(bulk[1] >= 20, "stalls put down to ttsp under bulk-copy: " + (long) bulk[1]);
        assertTrue(chunked[0] * 4 < bulk[0], "ttsp " + chunked[0] + " ms under chunked-copy, " + bulk[0] + " ms under bulk-copy");
    }

    /** The ttsp total (ms) and stall count of one run, from its JSON report; its log has ttsp lines too. */
    private double[] ttsp(final Path jdk, final String variant) throws Exception {
        final Path json = dir.resolve(variant + ".json");
        final Path log = dir.resolve(variant + ".hlog");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk,
            "prometheus=off,report=off,hiccup.interval=1s,report.json=" + json + ",hiccup.log=" + log,
            "-Xmx1g", "-jar", Paths.examplesJar().toString(), "safepoint-delay:" + variant, "--seconds", "6"), 120);
        assertEquals(0, result.exit(), result.err());
        final String report = Files.readString(json);
        final Matcher m = TTSP.matcher(report);
        assertTrue(m.find(), "ttsp in " + report);
        final double[] found = {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))};
        if (found[1] > 0) {
            assertTrue(HdrTools.max(HdrTools.processLog(log, "-tag", "ttsp")) > 0, "the log's ttsp lines hold the stalls");
        }
        return found;
    }
}
