package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The memory families of client_java's {@code JvmMemoryMetrics}, under its names, help, units and
 * label values, so that dashboards read them unchanged: {@code jvm_memory_*_bytes{area}},
 * {@code jvm_memory_pool_*_bytes{pool}}, {@code jvm_memory_pool_collection_*_bytes{pool}} and
 * {@code jvm_memory_objects_pending_finalization}.
 *
 * <p>Served by mech instead because client_java asks the JVM once per figure: four heap and four
 * non-heap usages a scrape, each a walk of the heap's pools, and eight usages per pool, each a
 * native call making a {@link MemoryUsage}, through a lambda a figure. With a scrape's path still
 * interpreted, that was its largest single collection (async-profiler, scrapes 20 to 120 of a
 * fresh host). Here each usage is asked once a scrape, and each label made once.
 *
 * <p>Thread-safe: scrapes may collect concurrently; it keeps no state that changes.
 */
final class MemoryFamilies implements MetricFamilies {

    private final Labels heapLabels = Labels.of("area", "heap");
    private final Labels nonHeapLabels = Labels.of("area", "nonheap");

    /** One figure of a usage, and the three families it gives: an area's, a pool's, and a pool's after its last collection. */
    private enum Figure {
        USED("used", "Used bytes", "Used bytes", "Used bytes after last collection", MemoryUsage::getUsed),
        COMMITTED("committed", "Committed (bytes)", "Committed bytes", "Committed after last collection bytes", MemoryUsage::getCommitted),
        MAX("max", "Max (bytes)", "Max bytes", "Max bytes after last collection", MemoryUsage::getMax),
        INIT("init", "Initial bytes", "Initial bytes", "Initial after last collection bytes", MemoryUsage::getInit);

        final String area;
        final String pool;
        final String collection;
        final String areaHelp;
        final String poolHelp;
        final String collectionHelp;
        final ToLongFunction<MemoryUsage> read;

        Figure(final String name, final String area, final String pool, final String collection, final ToLongFunction<MemoryUsage> read) {
            this.area = "jvm_memory_" + name + "_bytes";
            this.pool = "jvm_memory_pool_" + name + "_bytes";
            this.collection = "jvm_memory_pool_collection_" + name + "_bytes";
            this.areaHelp = area + " of a given JVM memory area.";
            this.poolHelp = pool + " of a given JVM memory pool.";
            this.collectionHelp = collection + " of a given JVM memory pool.";
            this.read = read;
        }
    }

    private static final Figure[] FIGURES = Figure.values();
    private final MetricMetadata pendingFamily = Metadata.gauge("jvm_memory_objects_pending_finalization", null,
        "The number of objects waiting in the finalizer queue.");

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final List<MemoryPoolMXBean> pools = ManagementFactory.getMemoryPoolMXBeans();
    private final Labels[] poolLabels;
    /** Each figure's three families, by the figure's ordinal. */
    private final FigureFamilies[] byFigure = new FigureFamilies[FIGURES.length];

    /** A figure's families: the areas', the pools', and the pools' after their last collection. */
    private record FigureFamilies(MetricMetadata area, MetricMetadata pool, MetricMetadata collection) {
    }

    MemoryFamilies() {
        for (final Figure figure : FIGURES) {
            byFigure[figure.ordinal()] = new FigureFamilies(Metadata.gauge(figure.area, Unit.BYTES, figure.areaHelp),
                Metadata.gauge(figure.pool, Unit.BYTES, figure.poolHelp), Metadata.gauge(figure.collection, Unit.BYTES, figure.collectionHelp));
        }
        poolLabels = new Labels[pools.size()];
        for (int i = 0; i < poolLabels.length; i++) {
            poolLabels[i] = Labels.of("pool", pools.get(i).getName());
        }
    }

    @Override
    public List<String> names() {
        final List<String> names = new ArrayList<>();
        names.add("jvm_memory_objects_pending_finalization");
        for (final Figure figure : FIGURES) {
            names.add(figure.area);
            names.add(figure.pool);
            names.add(figure.collection);
        }
        return names;
    }

    @Override
    public List<MetricSnapshot> collect() {
        final MemoryUsage heap = memory.getHeapMemoryUsage();
        final MemoryUsage nonHeap = memory.getNonHeapMemoryUsage();
        final MemoryUsage[] usage = new MemoryUsage[pools.size()];
        final MemoryUsage[] afterCollection = new MemoryUsage[usage.length];
        for (int i = 0; i < usage.length; i++) {
            usage[i] = pools.get(i).getUsage();
            afterCollection[i] = pools.get(i).getCollectionUsage();
        }
        final List<MetricSnapshot> families = new ArrayList<>(1 + 3 * FIGURES.length);
        families.add(OnePoint.gauge(pendingFamily, memory.getObjectPendingFinalizationCount()));
        for (final Figure figure : FIGURES) {
            final FigureFamilies of = byFigure[figure.ordinal()];
            families.add(new GaugeSnapshot(of.area(), List.of(OnePoint.gaugePoint(heapLabels, figure.read.applyAsLong(heap)),
                OnePoint.gaugePoint(nonHeapLabels, figure.read.applyAsLong(nonHeap)))));
            families.add(byPool(of.pool(), figure, usage));
            families.add(byPool(of.collection(), figure, afterCollection));
        }
        return families;
    }

    /** The family with one point per pool that has a usage of this kind; a pool without one is left out. */
    private GaugeSnapshot byPool(final MetricMetadata family, final Figure figure, final MemoryUsage[] usage) {
        final List<GaugeSnapshot.GaugeDataPointSnapshot> points = new ArrayList<>(usage.length);
        for (int i = 0; i < usage.length; i++) {
            if (usage[i] != null) {
                points.add(OnePoint.gaugePoint(poolLabels[i], figure.read.applyAsLong(usage[i])));
            }
        }
        return new GaugeSnapshot(family, points);
    }
}
