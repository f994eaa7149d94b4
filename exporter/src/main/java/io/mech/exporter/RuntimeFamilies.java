package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.CompilationMXBean;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * The buffer-pool, class-loading, compilation, collector and runtime families of client_java's
 * {@code JvmBufferPoolMetrics}, {@code JvmClassLoadingMetrics}, {@code JvmCompilationMetrics},
 * {@code JvmGarbageCollectorMetrics} and {@code JvmRuntimeInfoMetric}, under their names, help,
 * units and label values, so that dashboards read them unchanged.
 *
 * <p>Served by mech instead because registering client_java's took 68 ms of CPU of a host's first
 * scrape (async-profiler: class definition and a lambda bootstrapped per figure), and their
 * callbacks ran interpreted on every scrape of a fresh host. Here each figure is one getter call.
 *
 * <p>Thread-safe: scrapes may collect concurrently; it keeps no state that changes.
 */
final class RuntimeFamilies implements MetricFamilies {

    private final List<BufferPoolMXBean> bufferPools = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class);
    private final Labels[] bufferPoolLabels;
    private final ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
    /** Null where the JVM has no JIT or does not time it. */
    private final CompilationMXBean compilation;
    private final List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
    private final Labels[] collectorLabels;
    private final Labels runtime = Labels.of("runtime", property("java.runtime.name"), "vendor", property("java.vm.vendor"),
        "version", property("java.runtime.version"));

    RuntimeFamilies() {
        bufferPoolLabels = new Labels[bufferPools.size()];
        for (int i = 0; i < bufferPoolLabels.length; i++) {
            bufferPoolLabels[i] = Labels.of("pool", bufferPools.get(i).getName());
        }
        collectorLabels = new Labels[collectors.size()];
        for (int i = 0; i < collectorLabels.length; i++) {
            collectorLabels[i] = Labels.of("gc", collectors.get(i).getName());
        }
        final CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        compilation = jit != null && jit.isCompilationTimeMonitoringSupported() ? jit : null;
    }

    private static String property(final String name) {
        final String value = System.getProperty(name);
        return value == null ? "unknown" : value;
    }

    @Override
    public List<String> names() {
        return List.of("jvm_buffer_pool_used_bytes", "jvm_buffer_pool_capacity_bytes", "jvm_buffer_pool_used_buffers",
            "jvm_classes_currently_loaded", "jvm_classes_loaded", "jvm_classes_unloaded", "jvm_compilation_time_seconds",
            "jvm_gc_collection_seconds", "jvm_runtime");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final List<MetricSnapshot> families = new ArrayList<>(9);
        final GaugeSnapshot.Builder used = GaugeSnapshot.builder().name("jvm_buffer_pool_used_bytes")
            .help("Used bytes of a given JVM buffer pool.").unit(Unit.BYTES);
        final GaugeSnapshot.Builder capacity = GaugeSnapshot.builder().name("jvm_buffer_pool_capacity_bytes")
            .help("Bytes capacity of a given JVM buffer pool.").unit(Unit.BYTES);
        final GaugeSnapshot.Builder buffers = GaugeSnapshot.builder().name("jvm_buffer_pool_used_buffers")
            .help("Used buffers of a given JVM buffer pool.");
        for (int i = 0; i < bufferPoolLabels.length; i++) {
            final BufferPoolMXBean pool = bufferPools.get(i);
            used.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(bufferPoolLabels[i]).value(pool.getMemoryUsed()).build());
            capacity.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(bufferPoolLabels[i])
                .value(pool.getTotalCapacity()).build());
            buffers.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(bufferPoolLabels[i]).value(pool.getCount()).build());
        }
        families.add(used.build());
        families.add(capacity.build());
        families.add(buffers.build());
        families.add(OnePoint.gauge("jvm_classes_currently_loaded", null, "The number of classes that are currently loaded in the JVM",
            classes.getLoadedClassCount()));
        families.add(OnePoint.counter("jvm_classes_loaded", null,
            "The total number of classes that have been loaded since the JVM has started execution", classes.getTotalLoadedClassCount()));
        families.add(OnePoint.counter("jvm_classes_unloaded", null,
            "The total number of classes that have been unloaded since the JVM has started execution", classes.getUnloadedClassCount()));
        if (compilation != null) {
            families.add(OnePoint.counter("jvm_compilation_time_seconds", Unit.SECONDS,
                "The total time in seconds taken for HotSpot class compilation", compilation.getTotalCompilationTime() / 1e3));
        }
        final SummarySnapshot.Builder gc = SummarySnapshot.builder().name("jvm_gc_collection_seconds").unit(Unit.SECONDS)
            .help("Time spent in a given JVM garbage collector in seconds.");
        for (int i = 0; i < collectorLabels.length; i++) {
            final GarbageCollectorMXBean collector = collectors.get(i);
            gc.dataPoint(SummarySnapshot.SummaryDataPointSnapshot.builder().labels(collectorLabels[i])
                .count(collector.getCollectionCount()).sum(collector.getCollectionTime() / 1e3).build());
        }
        families.add(gc.build());
        families.add(InfoSnapshot.builder().name("jvm_runtime").help("JVM runtime info")
            .dataPoint(InfoSnapshot.InfoDataPointSnapshot.builder().labels(runtime).build()).build());
        return families;
    }
}
