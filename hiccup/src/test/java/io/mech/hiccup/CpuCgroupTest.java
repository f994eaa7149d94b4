package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process's CPU cgroup found from /proc/self/cgroup's lines, on cgroup file systems laid out as v2 and v1 mount them. */
class CpuCgroupTest {

    @TempDir
    Path root;

    @Test
    void v2FindsTheProcessesOwnDirectoryAndItsQuota() throws IOException {
        Files.writeString(root.resolve("cgroup.controllers"), "cpuset cpu io memory pids");
        final Path own = Files.createDirectories(root.resolve("kubepods/pod1"));
        Files.writeString(own.resolve("cpu.stat"), "usage_usec 10\nnr_periods 3\nnr_throttled 2\nthrottled_usec 7\n");
        Files.writeString(own.resolve("cpu.max"), "50000 100000\n");
        final CpuCgroup cgroup = CpuCgroup.find(List.of("0::/kubepods/pod1"), root);
        assertEquals(own, cgroup.dir());
        assertTrue(cgroup.v2());
        final long[] quota = new long[2];
        try (CpuCgroup.Quota files = cgroup.openQuota()) {
            assertTrue(files.read(quota));
            assertArrayEquals(new long[] {50000, 100000}, quota);
            Files.writeString(own.resolve("cpu.max"), "max 100000\n");
            assertTrue(files.read(quota), "the open file read again");
            assertArrayEquals(new long[] {-1, 100000}, quota, "no quota");
        }
        final long[] throttling = new long[3];
        try (ProcFile cpuStat = ProcFile.open(cgroup.cpuStat())) {
            assertTrue(cpuStat.read() && cpuStat.throttling(throttling, 0));
        }
        assertArrayEquals(new long[] {3, 2, 7000}, throttling, "periods, throttled periods, throttled ns (v2 counts us)");
    }

    @Test
    void v1FindsTheCpuHierarchyAndFallsBackToTheMountsRootInAContainer() throws IOException {
        final Path mount = Files.createDirectories(root.resolve("cpu,cpuacct"));
        Files.writeString(mount.resolve("cpu.stat"), "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
        Files.writeString(mount.resolve("cpu.cfs_quota_us"), "20000\n");
        Files.writeString(mount.resolve("cpu.cfs_period_us"), "100000\n");
        final List<String> lines = List.of("9:name=systemd:/", "4:memory:/docker/abc", "2:cpu,cpuacct:/docker/abc", "0::/");
        final CpuCgroup cgroup = CpuCgroup.find(lines, root);
        assertEquals(mount, cgroup.dir(), "the container's own path is not mounted inside it: the mount's root is its cgroup");
        assertFalse(cgroup.v2());
        final long[] quota = new long[2];
        try (CpuCgroup.Quota files = cgroup.openQuota()) {
            assertTrue(files.read(quota));
            assertArrayEquals(new long[] {20000, 100000}, quota);
            Files.writeString(mount.resolve("cpu.cfs_quota_us"), "-1\n");
            assertTrue(files.read(quota));
            assertArrayEquals(new long[] {-1, 100000}, quota, "no quota");
        }
        Files.writeString(mount.resolve("cpu.stat"), "nr_periods 9\nnr_throttled 4\nthrottled_time 1234567\n");
        final long[] throttling = new long[3];
        try (ProcFile cpuStat = ProcFile.open(cgroup.cpuStat())) {
            assertTrue(cpuStat.read() && cpuStat.throttling(throttling, 0));
        }
        assertArrayEquals(new long[] {9, 4, 1234567}, throttling, "periods, throttled periods, throttled ns (v1 counts ns)");
    }

    @Test
    void noCpuControllerIsNoCgroup() {
        assertNull(CpuCgroup.find(List.of("4:memory:/a", "0::/"), root));
    }
}
