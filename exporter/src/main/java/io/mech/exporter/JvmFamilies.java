package io.mech.exporter;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.instrumentation.jvm.JvmNativeMemoryMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * The JVM and process families served with {@code prometheus.jvm=on}: what client_java's
 * {@code JvmMetrics} registers, served by mech's {@link ThreadFamilies}, {@link ProcessFamilies},
 * {@link MemoryFamilies}, {@link PoolAllocationFamilies} and {@link RuntimeFamilies}, which leave
 * out the two deadlock gauges that stop the host at every scrape and ask the JVM for each figure
 * once; only client_java's native-memory families, served where the JVM tracks native memory, are
 * still client_java's. The names are client_java's, so dashboards made for it read them unchanged.
 */
final class JvmFamilies {

    private JvmFamilies() {
    }

    /** Registers the families; called once, at the first scrape, so that a JVM never scraped loads none of them. */
    static void register(final PrometheusProperties config, final PrometheusRegistry registry) {
        if (nativeMemoryTracked()) {
            JvmNativeMemoryMetrics.builder(config).register(registry);
        }
        registry.register(new MechCollector(List.of(new ThreadFamilies(), new ProcessFamilies(), new MemoryFamilies(),
            new PoolAllocationFamilies(), new RuntimeFamilies())));
    }

    /**
     * Whether the JVM tracks its native memory ({@code -XX:NativeMemoryTracking}), without which
     * client_java's native-memory families register nothing. Asked of the VM's flag first: those
     * families find it out by starting the platform MBean server, which cost the first scrape
     * 63 ms of CPU on a busy 2-core host (async-profiler, run 2026-11-28) and every host its heap.
     * Where the flag cannot be read, they are left to find out themselves.
     */
    private static boolean nativeMemoryTracked() {
        try {
            final HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            return vm == null || !vm.getVMOption("NativeMemoryTracking").getValue().equals("off");
        } catch (final RuntimeException | LinkageError e) {
            return true;
        }
    }
}
