package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ProcessFamiliesTest {

    @Test
    void statusLinesAreReadByTheirKeyOnly() {
        final String status = "Name:\tjava\nVmPeak:\t 9000 kB\nVmSize:\t  8192 kB\nVmRSS:\t 512 kB\nVmRSSx: 1 kB\n";
        assertEquals(8192, ProcessFamilies.kilobytes(status, "VmSize:"));
        assertEquals(512, ProcessFamilies.kilobytes(status, "VmRSS:"));
        assertEquals(-1, ProcessFamilies.kilobytes(status, "VmSwap:"));
        assertEquals(-1, ProcessFamilies.kilobytes("VmRSS: none\n", "VmRSS:"));
        assertEquals(7, ProcessFamilies.kilobytes("VmRSS: 7 kB", "VmRSS:"), "the first line too");
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
