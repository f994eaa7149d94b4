package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mech.probes.queues.QueueSnapshot;
import io.mech.probes.queues.QueueStats;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Queues of one type and site are one series; executors appear under Micrometer's executor names. */
class QueueFamiliesTest {

    private static QueueStats queue(final String site, final long depth, final long capacity, final double wait, final double rate) {
        return new QueueStats("queue", "java.util.concurrent.ArrayBlockingQueue", "java.util.concurrent.ArrayBlockingQueue", site,
            depth, false, depth, depth, capacity, 100, 100 - depth, rate, rate, 0, wait, 10, -1, "", 1, 10);
    }

    private static QueueStats executor(final long queued, final int active) {
        return new QueueStats("executor", "java.util.concurrent.ThreadPoolExecutor", "java.util.concurrent.LinkedBlockingQueue", "app.Main.run:9",
            queued, false, queued, queued, -1, 50, 50 - queued, 5, 5, 0, Double.NaN, 10, active, "growing", 2, 10);
    }

    private static MetricSnapshot family(final List<MetricSnapshot> families, final String name) {
        return families.stream().filter(f -> f.getMetadata().getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void sumsQueuesOfOneSiteAndNamesExecutorsAsMicrometerDoes() {
        final QueueSnapshot snapshot = new QueueSnapshot(true, 1_000_000_000L, List.of(
            queue("app.A.<init>:3", 10, 100, 0.1, 100), queue("app.A.<init>:3", 30, 100, 0.3, 100), executor(7, 2)),
            List.of(), List.of(), 0, 0, 0, 0, 3);
        final List<MetricSnapshot> families = new QueueFamilies(() -> snapshot).collect();
        final GaugeSnapshot depth = (GaugeSnapshot) family(families, "mech_queue_depth");
        assertEquals(1, depth.getDataPoints().size());
        assertEquals(40, depth.getDataPoints().get(0).getValue());
        assertEquals("app.A.<init>:3", depth.getDataPoints().get(0).getLabels().get("site"));
        assertEquals(200, ((GaugeSnapshot) family(families, "mech_queue_capacity")).getDataPoints().get(0).getValue());
        assertEquals(0.2, ((GaugeSnapshot) family(families, "mech_queue_utilization_ratio")).getDataPoints().get(0).getValue(), 1e-9);
        // (0.1 * 100 + 0.3 * 100) / (100 + 100)
        assertEquals(0.2, ((GaugeSnapshot) family(families, "mech_queue_wait_seconds")).getDataPoints().get(0).getValue(), 1e-9);
        assertEquals(2, ((CounterSnapshot) family(families, "mech_queue_backpressure_alerts")).getDataPoints().get(0).getValue());
        assertEquals(3, ((CounterSnapshot) family(families, "mech_queue_depth_corrections")).getDataPoints().get(0).getValue(),
            "the snapshot's corrections, one series");
        final GaugeSnapshot queued = (GaugeSnapshot) family(families, "mech_executor_queued_tasks");
        assertEquals(7, queued.getDataPoints().get(0).getValue());
        assertEquals("java.util.concurrent.LinkedBlockingQueue", queued.getDataPoints().get(0).getLabels().get("queue"));
        assertEquals(2, ((GaugeSnapshot) family(families, "mech_executor_active_threads")).getDataPoints().get(0).getValue());
        final List<? extends DataPointSnapshot> remaining = family(families, "mech_executor_queue_remaining_tasks").getDataPoints();
        assertEquals(0, remaining.size(), "an unbounded work queue has no remaining capacity");
        assertEquals(0, family(families, "mech_executor_wait_seconds").getDataPoints().size(), "no estimate, no sample");
    }

    @Test
    void utilisationIsAtMostOneAndAnUnknownBoundIsNoBound() {
        final QueueSnapshot snapshot = new QueueSnapshot(true, 1_000_000_000L, List.of(
            queue("app.A.<init>:3", 64, 1, 0.1, 100), queue("app.B.<init>:4", 64, QueueStats.UNKNOWN, 0.1, 100)),
            List.of(), List.of(), 0, 0, 0, 0, 3);
        final List<MetricSnapshot> families = new QueueFamilies(() -> snapshot).collect();
        final GaugeSnapshot ratio = (GaugeSnapshot) family(families, "mech_queue_utilization_ratio");
        assertEquals(1, ratio.getDataPoints().size(), "the queue of unknown bound has no ratio");
        assertEquals(1.0, ratio.getDataPoints().get(0).getValue(), "a depth read above the bound is the bound");
        final GaugeSnapshot capacity = (GaugeSnapshot) family(families, "mech_queue_capacity");
        assertEquals(List.of("app.A.<init>:3"), capacity.getDataPoints().stream().map(p -> p.getLabels().get("site")).toList());
        assertEquals(0, ((GaugeSnapshot) family(families, "mech_queue_remaining_capacity")).getDataPoints().get(0).getValue());
    }
}
