package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;

import java.util.List;

/**
 * Families of one unlabelled point, the shape most of mech's process, JVM and cgroup figures
 * take, and the points of labelled families; made with client_java's constructors on metadata
 * made once ({@link Metadata}), as its builders would make them.
 */
final class OnePoint {

    private OnePoint() {
    }

    /** A gauge of one value without labels. */
    static GaugeSnapshot gauge(final MetricMetadata family, final double value) {
        return new GaugeSnapshot(family, List.of(gaugePoint(Labels.EMPTY, value)));
    }

    /** A counter of one value without labels. */
    static CounterSnapshot counter(final MetricMetadata family, final double value) {
        return new CounterSnapshot(family, List.of(counterPoint(Labels.EMPTY, value)));
    }

    /** A gauge's point. */
    static GaugeSnapshot.GaugeDataPointSnapshot gaugePoint(final Labels labels, final double value) {
        return new GaugeSnapshot.GaugeDataPointSnapshot(value, labels, null);
    }

    /** A counter's point. */
    static CounterSnapshot.CounterDataPointSnapshot counterPoint(final Labels labels, final double value) {
        return new CounterSnapshot.CounterDataPointSnapshot(value, labels, null, 0L);
    }
}
