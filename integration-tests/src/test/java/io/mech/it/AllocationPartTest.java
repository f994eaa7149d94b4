package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The allocation probe in a forked host: the gc-pause kernel's churning thread is named first in
 * the report, with what it allocated; a host that only sleeps has no thread of its that allocated
 * as much as a megabyte. JDK 17, 21 and 25.
 */
class AllocationPartTest {

    private static final String OPTIONS = "probes.allocation=on,probes.allocation.every=200ms,prometheus.port=0,hiccup.log=,"
        + "probes.locks=off,hiccup.causes=off";

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mech.it.Jdks#all")
    void theChurningThreadIsNamedFirst(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk, OPTIONS + ",report.json=" + json,
            "-Xmx256m", "-jar", Paths.examplesJar().toString(), "gc-pause:small-live-set", "--seconds", "3"), 60);
        assertEquals(0, result.exit(), result.err());
        final List<Map<String, String>> rows = ReportRows.of(Files.readString(json), "allocation");
        assertTrue(!rows.isEmpty() && rows.get(0).get("thread").equals("gc-pause-churner"), rows.toString());
        assertTrue(Long.parseLong(rows.get(0).get("bytes")) > 64L << 20, "the churner allocated more than 64 MiB in 3 s: " + rows);
        assertTrue(rows.stream().noneMatch(row -> row.get("thread").startsWith("mech-")), rows.toString());
        final List<String> lines = ReportRows.lines(Files.readString(json), "allocation");
        assertTrue(lines.get(0).startsWith("allocation: ") && lines.get(0).contains("most by gc-pause-churner"), lines.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.mech.it.Jdks#oldestAndNewest")
    void aSleepingHostHasNoThreadThatAllocatedMuch(final Path jdk) throws Exception {
        final Path json = dir.resolve("report.json");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(jdk, OPTIONS + ",report.json=" + json,
            "-cp", Paths.testClasses(), SleepingHost.class.getName(), "2000"), 60);
        assertEquals(0, result.exit(), result.err());
        final List<Map<String, String>> rows = ReportRows.of(Files.readString(json), "allocation");
        assertTrue(rows.stream().allMatch(row -> Long.parseLong(row.get("bytes")) < 1L << 20), rows.toString());
        assertTrue(ReportRows.lines(Files.readString(json), "allocation").get(0).startsWith("allocation: "));
    }
}
