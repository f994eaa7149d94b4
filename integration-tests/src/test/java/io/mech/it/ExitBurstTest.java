package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.GcBurstHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A host that ends in a burst of collections has no GC pause put down to the OS: its last stalls
 * meet mech's stop before JFR has delivered their events, and HotSpot's counters name them.
 * Twenty hosts, Serial and Parallel in turn, two at a time on this 2-core machine. JFR records
 * from the first second ({@code hiccup.causes.jfr=on}), so its evidence is pending at exit; each
 * host waits for that before its burst (by default no JFR starts here, and a host waited its whole
 * 10 s for it: the class took 111 s instead of 32, ci36).
 */
class ExitBurstTest {

    private static final int HOSTS = 20;
    private static final Pattern FULL_PAUSE = Pattern.compile("Pause Full .* ([0-9.]+)ms$");
    /** The causes outside the JVM: a pause put down to any of them was missed. */
    private static final List<String> OS_CAUSES = List.of("throttled", "runqueue", "steal", "paging", "frozen", "os");

    @TempDir
    Path dir;

    /** What one host showed: -Xlog:gc's full pauses, and the report's gc and os rows. */
    private record Host(String collector, List<Double> fullPauses, double gcMillis, double longestOs, String report, String gcLog) {
    }

    @Test
    void noPauseOfAnEndingBurstIsOs() throws Exception {
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            final List<Future<Host>> hosts = new ArrayList<>();
            for (int i = 0; i < HOSTS; i++) {
                final int index = i;
                hosts.add(pool.submit(() -> run(index, index % 2 == 0 ? "Serial" : "Parallel")));
            }
            final List<String> wrong = new ArrayList<>();
            for (final Future<Host> future : hosts) {
                final Host host = future.get();
                assertEquals(3, host.fullPauses().size(), "three full collections in -Xlog:gc:\n" + host.gcLog() + "\n" + host);
                final double shortest = host.fullPauses().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
                final double total = host.fullPauses().stream().mapToDouble(Double::doubleValue).sum();
                if (host.longestOs() >= shortest || host.gcMillis() < 0.9 * total) {
                    wrong.add(host.collector() + ": full pauses " + host.fullPauses() + " ms, gc " + host.gcMillis()
                        + " ms, longest stall outside the JVM " + host.longestOs() + " ms: " + host.report());
                }
            }
            assertTrue(wrong.isEmpty(), wrong.size() + " of " + HOSTS + " hosts put a pause of the burst down to the OS "
                + "or missed it: " + wrong);
        } finally {
            pool.shutdownNow();
        }
    }

    private Host run(final int index, final String collector) throws Exception {
        final Path json = dir.resolve(index + ".json");
        final Path gcLog = dir.resolve(index + ".gc.log");
        final Forked.Result result = Forked.run(dir, Forked.javaWithMech(Path.of(System.getProperty("java.home")),
            "hiccup.causes.jfr=on,prometheus=off,report=off,hiccup.log=,report.json=" + json, "-XX:+Use" + collector + "GC", "-Xmx1g",
            "-Xlog:gc:file=" + gcLog, "-cp", Paths.testClasses(), GcBurstHost.class.getName(), "10000"), 120);
        assertEquals(0, result.exit(), result.err());
        final List<Double> pauses = new ArrayList<>();
        for (final String line : Files.readAllLines(gcLog)) {
            final Matcher m = FULL_PAUSE.matcher(line);
            if (m.find() && line.contains("System.gc()")) {
                pauses.add(Double.parseDouble(m.group(1)));
            }
        }
        final String report = Files.readString(json);
        final Map<String, Double> longest = ReportRows.byCause(report, "longest_ms");
        final double longestOs = OS_CAUSES.stream().filter(longest::containsKey).mapToDouble(longest::get).max().orElse(-1);
        final Double gc = ReportRows.byCause(report, "stall_ms").get("gc");
        assertTrue(longestOs >= 0 && gc != null, report);
        return new Host(collector, pauses, gc, longestOs, report, Files.readString(gcLog));
    }
}
