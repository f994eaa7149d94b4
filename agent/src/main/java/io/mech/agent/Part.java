package io.mech.agent;

import io.mech.agent.report.Section;
import io.mech.exporter.MetricFamilies;
import java.util.List;

/**
 * A probe the options switched on, as the rest of mech sees it: what it adds to /metrics and to
 * the report, and what it brings up to date before the final one. Each probe has one adapter
 * implementing this, so wiring a new probe touches {@link Mech#startParts} once.
 */
interface Part {

    /** The families this part serves on /metrics, asked once when the endpoint starts. */
    default List<MetricFamilies> families() {
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
