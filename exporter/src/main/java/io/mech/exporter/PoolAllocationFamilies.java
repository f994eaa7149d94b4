package io.mech.exporter;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * {@code jvm_memory_pool_allocated_bytes_total{pool}}, as client_java's
 * {@code JvmMemoryPoolAllocationMetrics} counts it and under its name, help and labels: at each
 * collection, what each pool grew by since the last one ended and during this one, increases only.
 * Like client_java's, it counts from the first scrape, when the endpoint makes it, and a pool
 * appears once it has grown.
 *
 * <p>Served by mech instead because client_java's is the one stateful client_java metric mech
 * would still register, and with it client_java's metric classes, defined at the host's first
 * scrape, and its labelled counter collected on every scrape.
 *
 * <p>Thread contract: the JVM's notification thread calls {@link #handleNotification}, scrapes call
 * {@link #collect}; both hold this object's lock, so a scrape sees whole collections.
 */
final class PoolAllocationFamilies implements MetricFamilies, NotificationListener {

    /** Per pool: what it held after the last collection, and what it was allocated in all. */
    private final MetricMetadata family = Metadata.counter("jvm_memory_pool_allocated_bytes", null,
        "Total bytes allocated in a given JVM memory pool. Only updated after GC, not continuously.");

    private static final class Pool {
        final Labels labels;
        long lastAfter;
        long allocated;

        Pool(final String name) {
            this.labels = Labels.of("pool", name);
        }
    }

    private final Map<String, Pool> pools = new TreeMap<>();

    /** Listens to every collector that tells of its collections. */
    PoolAllocationFamilies() {
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (collector instanceof NotificationEmitter) {
                ((NotificationEmitter) collector).addNotificationListener(this, null, null);
            }
        }
    }

    @Override
    public List<String> names() {
        return List.of("jvm_memory_pool_allocated_bytes");
    }

    @Override
    public synchronized void handleNotification(final Notification notification, final Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        try {
            final com.sun.management.GcInfo gc = GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData()).getGcInfo();
            final Map<String, MemoryUsage> after = gc.getMemoryUsageAfterGc();
            for (final Map.Entry<String, MemoryUsage> before : gc.getMemoryUsageBeforeGc().entrySet()) {
                final MemoryUsage afterThis = after.get(before.getKey());
                if (afterThis != null) {
                    grew(before.getKey(), before.getValue().getUsed(), afterThis.getUsed());
                }
            }
        } catch (final RuntimeException | OutOfMemoryError e) {
            // the JVM's own thread must not meet mech's failure; the next collection's growth counts from where this one left
        }
    }

    /** One pool's collection: what it grew by between collections and during this one, each counted only if it grew. */
    synchronized void grew(final String name, final long before, final long after) {
        final Pool pool = pools.computeIfAbsent(name, Pool::new);
        pool.allocated += Math.max(0, before - pool.lastAfter) + Math.max(0, after - before);
        pool.lastAfter = after;
    }

    @Override
    public synchronized List<MetricSnapshot> collect() {
        final List<CounterSnapshot.CounterDataPointSnapshot> allocated = new ArrayList<>(pools.size());
        for (final Pool pool : pools.values()) {
            if (pool.allocated > 0) {
                allocated.add(OnePoint.counterPoint(pool.labels, pool.allocated));
            }
        }
        return List.of(new CounterSnapshot(family, allocated));
    }
}
