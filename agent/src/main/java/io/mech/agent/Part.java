package io.mech.agent;

import io.mech.report.Section;
import io.mech.exporter.MetricFamilies;
import io.mech.probes.profiler.TriggerSource;
import java.util.List;

/**
 * A probe the options switched on, as the rest of mech sees it: its name, what it adds to
 * /metrics and to the report, what it offers the profiler, and what it brings up to date before
 * the final report. Each probe has one adapter implementing this, started by its
 * {@link PartSpec}; {@link Mech} starts the parts {@link Parts#ALL} lists, stage by stage, and
 * asks each for what it declares.
 *
 * <p>Every call is isolated: a part that throws from its start, its families, its section or
 * its settling is one warning and one count in {@code mech_internal_errors_total{component}},
 * and the other parts carry on.
 */
interface Part {

    /** A short, stable name: the component of the part's internal errors. */
    String name();

    /** The families this part serves on /metrics, asked once, when the part has started. */
    default List<MetricFamilies> families() {
        return List.of();
    }

    /** What may trigger a profiler capture, asked once, when the profiler starts after every other part. */
    default List<TriggerSource> triggers() {
        return List.of();
    }

    /** The part's section of a report as things stand; called from the report thread and at exit. */
    Section section();

    /**
     * Brings the part's findings up to date before the final report; called once at shutdown.
     *
     * @param deadline the {@link System#nanoTime} by which it must return: the host's exit waits
     */
    default void settle(final long deadline) {
    }
}
