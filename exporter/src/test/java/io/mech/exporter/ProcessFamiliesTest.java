package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ProcessFamiliesTest {

    @Test
    void statusLinesAreReadByTheirKeyOnly() {
        final String status = "Name:\tjava\nVmPeak:\t 9000 kB\nVmSize:\t  8192 kB\nVmRSSx: 1 kB\nVmRSS:\t 512 kB\n";
        assertEquals(8192, kilobytes(status, "VmSize:"));
        assertEquals(512, kilobytes(status, "VmRSS:"), "the key's own line, not one it begins");
        assertEquals(-1, kilobytes(status, "VmSwap:"));
        assertEquals(-1, kilobytes("VmRSS: none\n", "VmRSS:"));
        assertEquals(-1, kilobytes("Name:\tVmRSS: 3 kB\n", "VmRSS:"), "a key within a line is none");
        assertEquals(7, kilobytes("VmRSS: 7 kB", "VmRSS:"), "the last line, without its end");
        assertEquals(-1, kilobytes("VmRSS:", "VmRSS:"), "cut off before its number");
    }

    private static long kilobytes(final String status, final String key) {
        final byte[] text = (status + "VmSize: 99 kB, never read").getBytes(StandardCharsets.ISO_8859_1);
        return ProcStatus.kilobytes(text, status.length(), ProcStatus.key(key));
    }

    @Test
    void theStatusFileReadAgainGivesItsFiguresAsTheyAreNow() {
        final ProcStatus status = ProcStatus.open();
        Assumptions.assumeTrue(status != null, "needs Linux's /proc");
        final byte[][] keys = {ProcStatus.key("VmRSS:")};
        final long[] before = new long[1];
        assertTrue(status.kilobytes(keys, before));
        final int touched = 64 << 20;
        final ByteBuffer memory = ByteBuffer.allocateDirect(touched);
        for (int page = 0; page < touched; page += 4096) {
            memory.put(page, (byte) 1);
        }
        final long[] after = new long[1];
        assertTrue(status.kilobytes(keys, after));
        assertTrue(before[0] > 0 && after[0] - before[0] >= (touched >> 10) * 3 / 4,
            "VmRSS before and after touching 64 MiB, kB: " + before[0] + ", " + after[0]);
        assertEquals(1, memory.get(0));
    }

    @Test
    void servesTheProcessFamiliesUnderTheirDeclaredNamesWithThisProcessesFigures() {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/status")), "needs Linux's /proc");
        final ProcessFamilies families = new ProcessFamilies();
        final Map<String, Double> values = new HashMap<>();
        for (final MetricSnapshot family : families.collect()) {
            final String name = family.getMetadata().getPrometheusName();
            assertTrue(families.names().contains(name), name + " is declared");
            final double value = family instanceof CounterSnapshot
                ? ((CounterSnapshot) family).getDataPoints().get(0).getValue()
                : ((GaugeSnapshot) family).getDataPoints().get(0).getValue();
            values.put(name, value);
        }
        assertEquals(families.names().size(), values.size(), "every declared family on Linux: " + values.keySet());
        final long rssFloor = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
        assertTrue(values.get("process_resident_memory_bytes") > 0, values.toString());
        assertTrue(values.get("process_virtual_memory_bytes") >= values.get("process_resident_memory_bytes"), values.toString());
        assertTrue(values.get("process_virtual_memory_bytes") > rssFloor, "a JVM maps more than its used heap: " + values);
        assertTrue(values.get("process_open_fds") >= 3 && values.get("process_open_fds") <= values.get("process_max_fds"), values.toString());
        assertEquals(ManagementFactory.getRuntimeMXBean().getStartTime() / 1e3, values.get("process_start_time_seconds"), 1e-3);
        final double threadCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9;
        assertTrue(values.get("process_cpu_seconds") >= threadCpu, "the process used at least this thread's CPU, " + threadCpu
            + " s: " + values);
    }
}
