package io.mech.exporter;

import io.mech.probes.queues.QueueSnapshot;
import io.mech.probes.queues.QueueStats;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The queue probe's figures. Queues made at one site of one type are one series (summed; the
 * wait is their summed mean depth over their summed dequeue rate, recomputed here as the sum of
 * depth over the sum of rate), because several instances of one site would otherwise repeat a
 * label set. Executors also appear under Micrometer's executor names
 * ({@code executor_queued_tasks}, {@code executor_active_threads},
 * {@code executor_queue_remaining_tasks}), prefixed {@code mech_}.
 */
public final class QueueFamilies implements MetricFamilies {

    private final MetricMetadata depthFamily = Metadata.gauge("mech_queue_depth", null,
        "Elements in the queue at the last sample (a linked queue's walk stops at 10000)");
    private final MetricMetadata capacityFamily = Metadata.gauge("mech_queue_capacity", null,
        "The queue's bound; absent for unbounded queues and those whose bound is unknown");
    private final MetricMetadata remainingFamily = Metadata.gauge("mech_queue_remaining_capacity", null,
        "Capacity minus depth, for bounded queues");
    private final MetricMetadata utilizationFamily = Metadata.gauge("mech_queue_utilization_ratio", null,
        "Depth over capacity, for bounded queues: from 0 to 1");
    private final MetricMetadata enqueuedFamily = Metadata.counter("mech_queue_enqueued", null,
        "Elements enqueued since the queue was registered");
    private final MetricMetadata dequeuedFamily = Metadata.counter("mech_queue_dequeued", null,
        "Elements dequeued since the queue was registered");
    private final MetricMetadata waitFamily = Metadata.gauge("mech_queue_wait_seconds", null,
        "Little's law: mean depth over the dequeue rate, smoothed over 10 s; absent when the rate is about zero");
    private final MetricMetadata alertsFamily = Metadata.counter("mech_queue_backpressure_alerts", null,
        "Back-pressure episodes: full, deep or growing for three samples");
    private final MetricMetadata queuedTasksFamily = Metadata.gauge("mech_executor_queued_tasks", null,
        "Tasks in the executor's work queue at the last sample");
    private final MetricMetadata activeFamily = Metadata.gauge("mech_executor_active_threads", null,
        "Threads running a task at the last sample");
    private final MetricMetadata remainingTasksFamily = Metadata.gauge("mech_executor_queue_remaining_tasks", null,
        "Room left in a bounded work queue");
    private final MetricMetadata taskWaitFamily = Metadata.gauge("mech_executor_wait_seconds", null,
        "Little's law on the work queue: how long a task waits before it runs");
    private final MetricMetadata taskAlertsFamily = Metadata.counter("mech_executor_backpressure_alerts", null,
        "Back-pressure episodes of the work queue");
    private final MetricMetadata correctionsFamily = Metadata.counter("mech_queue_depth_corrections", null,
        "Times a counted queue's depth was corrected to its own size(): elements had moved by a way mech does not count");

    private final Supplier<QueueSnapshot> snapshot;

    /** @param snapshot the probe's current snapshot */
    public QueueFamilies(final Supplier<QueueSnapshot> snapshot) {
        this.snapshot = snapshot;
    }

    @Override
    public List<String> names() {
        return List.of("mech_queue_depth",
            "mech_queue_capacity",
            "mech_queue_remaining_capacity",
            "mech_queue_utilization_ratio",
            "mech_queue_enqueued",
            "mech_queue_dequeued",
            "mech_queue_wait_seconds",
            "mech_queue_backpressure_alerts",
            "mech_executor_queued_tasks",
            "mech_executor_active_threads",
            "mech_executor_queue_remaining_tasks",
            "mech_executor_wait_seconds",
            "mech_executor_backpressure_alerts",
            "mech_queue_depth_corrections");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final Map<Labels, Sum> queues = new LinkedHashMap<>();
        final Map<Labels, Sum> executors = new LinkedHashMap<>();
        final QueueSnapshot now = snapshot.get();
        for (final QueueStats q : now.queues()) {
            final boolean executor = q.kind().equals("executor");
            final Labels labels = executor ? Labels.of("name", q.type(), "queue", q.queueType(), "site", q.site())
                : Labels.of("type", q.type(), "site", q.site());
            (executor ? executors : queues).computeIfAbsent(labels, l -> new Sum()).add(q);
        }
        final List<MetricSnapshot> families = new ArrayList<>();
        families.add(gauge(depthFamily, queues, s -> s.depth));
        families.add(gauge(capacityFamily, bounded(queues), s -> s.capacity));
        families.add(gauge(remainingFamily, bounded(queues), s -> s.capacity - s.depth));
        families.add(gauge(utilizationFamily, bounded(queues), s -> s.capacity > 0 ? Math.min(1, s.depth / s.capacity) : 0));
        families.add(counter(enqueuedFamily, queues, s -> s.enqueued));
        families.add(counter(dequeuedFamily, queues, s -> s.dequeued));
        families.add(gauge(waitFamily, waited(queues), s -> s.waitDepth / s.dequeueRate));
        families.add(counter(alertsFamily, queues, s -> s.alerts));
        families.add(gauge(queuedTasksFamily, executors, s -> s.depth));
        families.add(gauge(activeFamily, executors, s -> s.active));
        families.add(gauge(remainingTasksFamily, bounded(executors), s -> s.capacity - s.depth));
        families.add(gauge(taskWaitFamily, waited(executors), s -> s.waitDepth / s.dequeueRate));
        families.add(counter(taskAlertsFamily, executors, s -> s.alerts));
        families.add(OnePoint.counter(correctionsFamily, now.corrected()));
        return families;
    }

    private static Map<Labels, Sum> bounded(final Map<Labels, Sum> all) {
        final Map<Labels, Sum> bounded = new LinkedHashMap<>();
        all.forEach((labels, sum) -> {
            if (!sum.unbounded) {
                bounded.put(labels, sum);
            }
        });
        return bounded;
    }

    private static Map<Labels, Sum> waited(final Map<Labels, Sum> all) {
        final Map<Labels, Sum> waited = new LinkedHashMap<>();
        all.forEach((labels, sum) -> {
            if (sum.waitKnown && sum.dequeueRate > 0) {
                waited.put(labels, sum);
            }
        });
        return waited;
    }

    private static GaugeSnapshot gauge(final MetricMetadata family, final Map<Labels, Sum> sums,
                                       final java.util.function.ToDoubleFunction<Sum> value) {
        final List<GaugeSnapshot.GaugeDataPointSnapshot> points = new ArrayList<>(sums.size());
        sums.forEach((labels, sum) -> points.add(OnePoint.gaugePoint(labels, value.applyAsDouble(sum))));
        return new GaugeSnapshot(family, points);
    }

    private static CounterSnapshot counter(final MetricMetadata family, final Map<Labels, Sum> sums,
                                           final java.util.function.ToDoubleFunction<Sum> value) {
        final List<CounterSnapshot.CounterDataPointSnapshot> points = new ArrayList<>(sums.size());
        sums.forEach((labels, sum) -> points.add(OnePoint.counterPoint(labels, Math.max(0, value.applyAsDouble(sum)))));
        return new CounterSnapshot(family, points);
    }

    /** The queues of one label set, added up. */
    private static final class Sum {
        double depth;
        double capacity;
        /** Whether a queue of the set has no bound, or one mech could not read. */
        boolean unbounded;
        double enqueued;
        double dequeued;
        double active;
        double alerts;
        double waitDepth;
        double dequeueRate;
        boolean waitKnown;

        void add(final QueueStats q) {
            depth += Math.max(0, q.depth());
            unbounded |= !q.bounded();
            capacity += Math.max(0, q.capacity());
            enqueued += Math.max(0, q.enqueued());
            dequeued += Math.max(0, q.dequeued());
            active += Math.max(0, q.active());
            alerts += q.alerts();
            if (!Double.isNaN(q.waitSeconds()) && q.dequeueRate() > 0) {
                waitKnown = true;
                waitDepth += q.waitSeconds() * q.dequeueRate();
                dequeueRate += q.dequeueRate();
            }
        }
    }
}
