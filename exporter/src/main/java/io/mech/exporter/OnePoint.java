package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;

/** Families of one unlabelled point, the shape most of mech's process, JVM and cgroup figures take. */
final class OnePoint {

    private OnePoint() {
    }

    /** A gauge of one value without labels; {@code unit} may be null. */
    static GaugeSnapshot gauge(final String name, final Unit unit, final String help, final double value) {
        final GaugeSnapshot.Builder gauge = GaugeSnapshot.builder().name(name).help(help);
        if (unit != null) {
            gauge.unit(unit);
        }
        return gauge.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build();
    }

    /** A counter of one value without labels, its name without {@code _total}; {@code unit} may be null. */
    static CounterSnapshot counter(final String name, final Unit unit, final String help, final double value) {
        final CounterSnapshot.Builder counter = CounterSnapshot.builder().name(name).help(help);
        if (unit != null) {
            counter.unit(unit);
        }
        return counter.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(value).build()).build();
    }
}
