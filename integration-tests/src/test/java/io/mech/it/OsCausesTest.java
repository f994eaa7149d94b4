package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.BusyHost;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The causes outside the JVM told apart, each caused for real: a host whose busy threads outnumber
 * the cores waits for a core ({@code runqueue}); a host in a cgroup whose CPU quota is below its
 * busy threads' need is {@code throttled}. (A stopped process, {@code frozen}, is
 * {@link HiccupCausesTest}'s.) Each asserts that 80% or more of the stall time outside the JVM
 * goes to its cause.
 */
class OsCausesTest {

    private static final List<String> JVM_CAUSES = List.of("gc", "safepoint", "ttsp", "mech");
    /** Less stall time outside the JVM than this and the test would say nothing. */
    private static final double ENOUGH_MILLIS = 100;
    private static final String BUSY_MILLIS = "4000";

    @TempDir
    Path dir;

    @Test
    void threadsBeyondTheCoresWaitInTheRunQueue() throws Exception {
        Assumptions.assumeTrue(quotaOf(ownCpuCgroup()) == null, "this process's cgroup has a CPU quota: its stalls would be throttled");
        final int busy = 3 * Runtime.getRuntime().availableProcessors();
        final String report = run(List.of(), busy);
        assertShare("runqueue", causes(report));
        assertTrue(ReportRows.notes(report).stream().anyMatch(note -> note.startsWith("runqueue: ")
            && note.contains("the meter was runnable and waited for")), "the advice for runqueue: " + report);
    }

    @Test
    void aQuotaBelowTheBusyThreadsNeedIsThrottled() throws Exception {
        final Path cgroup = quotaCgroup();
        try {
            final List<String> prefix = List.of("sh", "-c", "echo $$ > " + cgroup.resolve("cgroup.procs") + " && exec \"$0\" \"$@\"");
            final String report = run(prefix, 2);
            assertShare("throttled", causes(report));
            assertTrue(report.contains("(quota 50.0 ms every 100.0 ms, 0.50 CPUs; throttled in "),
                "the advice names the quota, the period and the throttled share: " + report);
        } finally {
            Files.deleteIfExists(cgroup);
        }
    }

    /** Runs the host with mech, its command after the prefix, and returns the JSON report. */
    private String run(final List<String> prefix, final int busyThreads) throws Exception {
        final Path json = dir.resolve("report.json");
        final List<String> command = new ArrayList<>(prefix);
        command.addAll(Forked.javaWithMech(Path.of(System.getProperty("java.home")), "prometheus=off,report=off,hiccup.log=,report.json=" + json,
            "-cp", Paths.testClasses(), BusyHost.class.getName(), Integer.toString(busyThreads), BUSY_MILLIS));
        final Forked.Result result = Forked.run(dir, command, 120);
        assertEquals(0, result.exit(), result.err());
        return Files.readString(json);
    }

    /** The report's stall time by cause. */
    private static Map<String, Double> causes(final String report) {
        final Map<String, Double> causes = ReportRows.byCause(report, "stall_ms");
        assertTrue(causes.containsKey(JVM_CAUSES.get(0)), report);
        return causes;
    }

    private static void assertShare(final String cause, final Map<String, Double> causes) {
        double outside = 0;
        for (final Map.Entry<String, Double> c : causes.entrySet()) {
            outside += JVM_CAUSES.contains(c.getKey()) || c.getKey().equals("unknown") ? 0 : c.getValue();
        }
        assertTrue(outside >= ENOUGH_MILLIS, "the host stalled outside the JVM for " + outside + " ms only: " + causes);
        assertTrue(causes.get(cause) >= 0.8 * outside, cause + " " + causes.get(cause) + " ms of the " + outside
            + " ms stalled outside the JVM: " + causes);
    }

    /**
     * A new CPU cgroup with half a CPU's quota, under v1's cpu controller or v2's root; the test
     * is skipped where neither can be written (not root, or no cpu controller).
     */
    private static Path quotaCgroup() throws IOException {
        final String name = "mech-it-" + ProcessHandle.current().pid();
        final Path v2 = Path.of("/sys/fs/cgroup");
        for (final Path mount : List.of(v2.resolve("cpu"), v2.resolve("cpu,cpuacct"))) {
            if (Files.isWritable(mount.resolve("cgroup.procs")) && Files.exists(mount.resolve("cpu.cfs_quota_us"))) {
                final Path cgroup = Files.createDirectories(mount.resolve(name));
                Files.writeString(cgroup.resolve("cpu.cfs_period_us"), "100000");
                Files.writeString(cgroup.resolve("cpu.cfs_quota_us"), "50000");
                return cgroup;
            }
        }
        if (Files.isWritable(v2.resolve("cgroup.subtree_control")) && Files.readString(v2.resolve("cgroup.controllers")).contains("cpu")) {
            Files.writeString(v2.resolve("cgroup.subtree_control"), "+cpu");
            final Path cgroup = Files.createDirectories(v2.resolve(name));
            Files.writeString(cgroup.resolve("cpu.max"), "50000 100000");
            return cgroup;
        }
        Assumptions.abort("no CPU cgroup can be written here (not root, or no cpu controller mounted)");
        return null;
    }

    /** This process's CPU cgroup directory, v1's cpu controller first, else v2's; null where none is found. */
    private static Path ownCpuCgroup() throws IOException {
        final List<String> lines = Files.readAllLines(Path.of("/proc/self/cgroup"));
        for (final String line : lines) {
            final String[] parts = line.split(":", 3);
            if (List.of(parts[1].split(",")).contains("cpu")) {
                return Path.of("/sys/fs/cgroup", parts[1]).resolve(parts[2].substring(1));
            }
        }
        for (final String line : lines) {
            final String[] parts = line.split(":", 3);
            if (parts[0].equals("0") && parts[1].isEmpty()) {
                return Path.of("/sys/fs/cgroup").resolve(parts[2].substring(1));
            }
        }
        return null;
    }

    /** The cgroup's quota as the kernel writes it; null where it has none. */
    private static String quotaOf(final Path cgroup) throws IOException {
        if (cgroup == null) {
            return null;
        }
        final Path v1 = cgroup.resolve("cpu.cfs_quota_us");
        final Path v2 = cgroup.resolve("cpu.max");
        final String quota = Files.isReadable(v1) ? Files.readString(v1).trim()
            : Files.isReadable(v2) ? Files.readString(v2).trim().split(" ")[0] : "-1";
        return quota.equals("-1") || quota.equals("max") ? null : quota;
    }
}
