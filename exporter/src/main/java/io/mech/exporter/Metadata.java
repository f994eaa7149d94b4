package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * A family's name, help and unit, made once per family by client_java's own builders, so that they
 * are exactly what the builders would make (a counter's {@code _total} stripped, a unit appended)
 * and are checked once, not at every scrape. A builder makes them again at each {@code build()}:
 * a name check, suffix tests and a few string concatenations a family, run interpreted on a fresh
 * host's scrapes.
 *
 * <p>Families keep what it makes in instance fields, made as the family is: a class whose static
 * initialiser meets an {@code OutOfMemoryError} stays unusable for the JVM's life, and a family
 * first made under a full heap must be made again once memory is free.
 *
 * <p>Immutable results; any thread may call.
 */
final class Metadata {

    private Metadata() {
    }

    /** A gauge's; {@code unit} may be null. */
    static MetricMetadata gauge(final String name, final Unit unit, final String help) {
        return made(GaugeSnapshot.builder(), name, unit, help);
    }

    /** A counter's, its name given with or without {@code _total}; {@code unit} may be null. */
    static MetricMetadata counter(final String name, final Unit unit, final String help) {
        return made(CounterSnapshot.builder(), name, unit, help);
    }

    /** A summary's; {@code unit} may be null. */
    static MetricMetadata summary(final String name, final Unit unit, final String help) {
        return made(SummarySnapshot.builder(), name, unit, help);
    }

    /** A (not gauge) histogram's; {@code unit} may be null. */
    static MetricMetadata histogram(final String name, final Unit unit, final String help) {
        return made(HistogramSnapshot.builder(), name, unit, help);
    }

    /** An info family's, its name given with or without {@code _info}. */
    static MetricMetadata info(final String name, final String help) {
        return made(InfoSnapshot.builder(), name, null, help);
    }

    /** What the family's own builder makes of the name, help and unit, by building it without points. */
    private static MetricMetadata made(final MetricSnapshot.Builder<?> family, final String name, final Unit unit, final String help) {
        family.name(name).help(help);
        if (unit != null) {
            family.unit(unit);
        }
        return family.build().getMetadata();
    }
}
