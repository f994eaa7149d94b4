package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * the getters are called directly, and the status file is read once a scrape into one buffer.
 * A figure the platform does not give is left out, never served as 0.
 *
 * <p>Thread-safe: scrapes may collect concurrently; it keeps no state that changes.
 */
final class ProcessFamilies implements MetricFamilies {

    private static final Path STATUS = Path.of("/proc/self/status");
    /** /proc/self/status is about 1.5 KB; what lies beyond is not needed. */
    private static final int STATUS_BYTES = 4096;

    private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    private final double startSeconds = ManagementFactory.getRuntimeMXBean().getStartTime() / 1e3;

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
                families.add(CounterSnapshot.builder().name("process_cpu_seconds").unit(Unit.SECONDS)
                    .help("Total user and system CPU time spent in seconds.")
                    .dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(cpu / 1e9).build()).build());
            }
        }
        families.add(gauge("process_start_time_seconds", Unit.SECONDS, "Start time of the process since unix epoch in seconds.",
            startSeconds));
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean) {
            final com.sun.management.UnixOperatingSystemMXBean unix = (com.sun.management.UnixOperatingSystemMXBean) os;
            families.add(gauge("process_open_fds", null, "Number of open file descriptors.", unix.getOpenFileDescriptorCount()));
            families.add(gauge("process_max_fds", null, "Maximum number of open file descriptors.", unix.getMaxFileDescriptorCount()));
        }
        final String status = status();
        if (status != null) {
            final long virtual = kilobytes(status, "VmSize:");
            if (virtual >= 0) {
                families.add(gauge("process_virtual_memory_bytes", Unit.BYTES, "Virtual memory size in bytes.", virtual * 1024.0));
            }
            final long resident = kilobytes(status, "VmRSS:");
            if (resident >= 0) {
                families.add(gauge("process_resident_memory_bytes", Unit.BYTES, "Resident memory size in bytes.", resident * 1024.0));
            }
        }
        return families;
    }

    /** A gauge of one value without labels; {@code unit} may be null. */
    static GaugeSnapshot gauge(final String name, final Unit unit, final String help, final double value) {
        final GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
        if (unit != null) {
            gauge.unit(unit);
        }
        return gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }

    /** The start of /proc/self/status; null where there is none (not Linux). */
    private static String status() {
        try (InputStream in = Files.newInputStream(STATUS)) {
            return new String(in.readNBytes(STATUS_BYTES), StandardCharsets.ISO_8859_1);
        } catch (final IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The kilobytes on the status line that starts with the key ({@code VmRSS:     1234 kB});
     * -1 when the line is missing or holds no number.
     */
    static long kilobytes(final String status, final String key) {
        int at = status.startsWith(key) ? 0 : status.indexOf("\n" + key);
        if (at < 0) {
            return -1;
        }
        at += (at == 0 ? 0 : 1) + key.length();
        while (at < status.length() && (status.charAt(at) == ' ' || status.charAt(at) == '\t')) {
            at++;
        }
        long value = 0;
        int digits = 0;
        while (at < status.length() && Character.isDigit(status.charAt(at))) {
            value = value * 10 + (status.charAt(at++) - '0');
            digits++;
        }
        return digits == 0 ? -1 : value;
    }
}
