package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The process families Prometheus' client libraries share ({@code process_cpu_seconds_total},
 * {@code process_start_time_seconds}, {@code process_open_fds}, {@code process_max_fds},
 * {@code process_virtual_memory_bytes}, {@code process_resident_memory_bytes}), under the names
 * and units client_java's {@code ProcessMetrics} gives them, so dashboards read them unchanged.
 *
 * <p>Served by mech instead of client_java's, which was a quarter of a scrape's CPU (measured
 * with async-profiler over 3,000 scrapes): it reaches each getter by reflection, building an
 * {@code IllegalAccessException} on every call it first tries on the JDK's private class, and
 * reads {@code /proc/self/status} twice, through a reader and a regular expression per line. Here
 * the getters are called directly, the status file is read once a scrape ({@link ProcStatus}),
 * and the open descriptors are counted by the kernel where it can ({@link OpenFiles}). A figure
 * the platform does not give is left out, never served as 0.
 *
 * <p>Thread-safe: scrapes may collect concurrently; it keeps no state that changes but the status
 * file's buffer, which {@link ProcStatus} guards.
 */
final class ProcessFamilies implements MetricFamilies {

    /** The status lines read: the virtual size, then the resident set. */
    private static final byte[][] MEMORY = {ProcStatus.key("VmSize:"), ProcStatus.key("VmRSS:")};

    private final MetricMetadata cpuFamily = Metadata.counter("process_cpu_seconds", Unit.SECONDS,
        "Total user and system CPU time spent in seconds.");
    private final MetricMetadata startFamily = Metadata.gauge("process_start_time_seconds", Unit.SECONDS,
        "Start time of the process since unix epoch in seconds.");
    private final MetricMetadata openFdsFamily = Metadata.gauge("process_open_fds", null, "Number of open file descriptors.");
    private final MetricMetadata maxFdsFamily = Metadata.gauge("process_max_fds", null, "Maximum number of open file descriptors.");
    private final MetricMetadata virtualFamily = Metadata.gauge("process_virtual_memory_bytes", Unit.BYTES, "Virtual memory size in bytes.");
    private final MetricMetadata residentFamily = Metadata.gauge("process_resident_memory_bytes", Unit.BYTES, "Resident memory size in bytes.");

    private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    private final double startSeconds = ManagementFactory.getRuntimeMXBean().getStartTime() / 1e3;
    private final ProcStatus status = ProcStatus.open();
    private final OpenFiles openFiles = new OpenFiles(os instanceof com.sun.management.UnixOperatingSystemMXBean
        ? (com.sun.management.UnixOperatingSystemMXBean) os : null);

    @Override
    public List<String> names() {
        return List.of("process_cpu_seconds", "process_start_time_seconds", "process_open_fds", "process_max_fds",
            "process_virtual_memory_bytes", "process_resident_memory_bytes");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final List<MetricSnapshot> families = new ArrayList<>(6);
        if (os instanceof com.sun.management.OperatingSystemMXBean) {
            final long cpu = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
            if (cpu >= 0) {
                families.add(OnePoint.counter(cpuFamily, cpu / 1e9));
            }
        }
        families.add(OnePoint.gauge(startFamily, startSeconds));
        final long open = openFiles.count();
        if (open >= 0) {
            families.add(OnePoint.gauge(openFdsFamily, open));
        }
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
            families.add(OnePoint.gauge(maxFdsFamily, ((com.sun.management.UnixOperatingSystemMXBean) os).getMaxFileDescriptorCount()));
        }
        final long[] kilobytes = new long[MEMORY.length];
        if (status != null && status.kilobytes(MEMORY, kilobytes)) {
            if (kilobytes[0] >= 0) {
                families.add(OnePoint.gauge(virtualFamily, kilobytes[0] * 1024.0));
            }
            if (kilobytes[1] >= 0) {
                families.add(OnePoint.gauge(residentFamily, kilobytes[1] * 1024.0));
            }
        }
        return families;
    }
}
