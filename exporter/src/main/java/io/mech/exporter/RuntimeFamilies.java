package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Quantiles;
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

    private final MetricMetadata bufferUsedFamily = Metadata.gauge("jvm_buffer_pool_used_bytes", Unit.BYTES,
        "Used bytes of a given JVM buffer pool.");
    private final MetricMetadata bufferCapacityFamily = Metadata.gauge("jvm_buffer_pool_capacity_bytes", Unit.BYTES,
        "Bytes capacity of a given JVM buffer pool.");
    private final MetricMetadata buffersFamily = Metadata.gauge("jvm_buffer_pool_used_buffers", null, "Used buffers of a given JVM buffer pool.");
    private final MetricMetadata classesFamily = Metadata.gauge("jvm_classes_currently_loaded", null,
        "The number of classes that are currently loaded in the JVM");
    private final MetricMetadata classesLoadedFamily = Metadata.counter("jvm_classes_loaded", null,
        "The total number of classes that have been loaded since the JVM has started execution");
    private final MetricMetadata classesUnloadedFamily = Metadata.counter("jvm_classes_unloaded", null,
        "The total number of classes that have been unloaded since the JVM has started execution");
    private final MetricMetadata compilationFamily = Metadata.counter("jvm_compilation_time_seconds", Unit.SECONDS,
        "The total time in seconds taken for HotSpot class compilation");
    private final MetricMetadata collectionsFamily = Metadata.summary("jvm_gc_collection_seconds", Unit.SECONDS,
        "Time spent in a given JVM garbage collector in seconds.");
    private final MetricMetadata runtimeFamily = Metadata.info("jvm_runtime", "JVM runtime info");

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
        final List<GaugeSnapshot.GaugeDataPointSnapshot> used = new ArrayList<>(bufferPoolLabels.length);
        final List<GaugeSnapshot.GaugeDataPointSnapshot> capacity = new ArrayList<>(bufferPoolLabels.length);
        final List<GaugeSnapshot.GaugeDataPointSnapshot> buffers = new ArrayList<>(bufferPoolLabels.length);
        for (int i = 0; i < bufferPoolLabels.length; i++) {
            final BufferPoolMXBean pool = bufferPools.get(i);
            used.add(OnePoint.gaugePoint(bufferPoolLabels[i], pool.getMemoryUsed()));
            capacity.add(OnePoint.gaugePoint(bufferPoolLabels[i], pool.getTotalCapacity()));
            buffers.add(OnePoint.gaugePoint(bufferPoolLabels[i], pool.getCount()));
        }
        families.add(new GaugeSnapshot(bufferUsedFamily, used));
        families.add(new GaugeSnapshot(bufferCapacityFamily, capacity));
        families.add(new GaugeSnapshot(buffersFamily, buffers));
        families.add(OnePoint.gauge(classesFamily, classes.getLoadedClassCount()));
        families.add(OnePoint.counter(classesLoadedFamily, classes.getTotalLoadedClassCount()));
        families.add(OnePoint.counter(classesUnloadedFamily, classes.getUnloadedClassCount()));
        if (compilation != null) {
            families.add(OnePoint.counter(compilationFamily, compilation.getTotalCompilationTime() / 1e3));
        }
        final List<SummarySnapshot.SummaryDataPointSnapshot> gc = new ArrayList<>(collectorLabels.length);
        for (int i = 0; i < collectorLabels.length; i++) {
            final GarbageCollectorMXBean collector = collectors.get(i);
            gc.add(new SummarySnapshot.SummaryDataPointSnapshot(collector.getCollectionCount(), collector.getCollectionTime() / 1e3,
                Quantiles.EMPTY, collectorLabels[i], Exemplars.EMPTY, 0L));
        }
        families.add(new SummarySnapshot(collectionsFamily, gc));
        families.add(new InfoSnapshot(runtimeFamily, List.of(new InfoSnapshot.InfoDataPointSnapshot(runtime))));
        return families;
    }
}
