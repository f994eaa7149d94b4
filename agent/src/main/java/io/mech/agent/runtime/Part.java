package io.mech.agent.runtime;

import io.mech.exporter.MetricFamilies;
import io.mech.probes.profiler.TriggerSource;
import io.mech.report.CauseSummary;
import io.mech.report.HiccupSummary;
import io.mech.report.Section;
import io.mech.report.Unmetered;
import java.util.List;
import jdk.jfr.consumer.RecordingStream;

/**
 * A component the options switched on (the hiccup recorder, the causes, each probe), as the rest
 * of mech sees it, with one lifecycle: started by its {@link PartSpec}, then asked for what it
 * adds to /metrics, to the report and to the profiler's triggers, started further after the
 * host's first second, brought up to date before the final report, and closed. {@link Mech}
 * starts the parts it is given, stage by stage, and asks each for what it declares;
 * what a part needs of another comes through {@link Offers}.
 *
 * <p>Every call is isolated: a part that throws from its start, its families, its report, its
 * deferred start, its settling or its close is one warning and one count in
 * {@code mech_internal_errors_total{component}}, and the other parts carry on.
 */
public interface Part {

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

    /**
     * The part's section of a report as things stand, or null for a part whose findings are rows
     * of the report's own tables ({@link #hiccups}, {@link #causes}); called from the report
     * thread and at exit, as are those.
     */
    Section section();

    /** The part's rows of the report's hiccup table, one per JVM or meter it measures. */
    default List<HiccupSummary> hiccups() {
        return List.of();
    }

    /** The part's rows of the report's stall-time-by-cause table. */
    default List<CauseSummary> causes() {
        return List.of();
    }

    /** What stopped the host before its meter began, where this part knows: {@link Unmetered#NONE} where it does not. */
    default Unmetered unmetered() {
        return Unmetered.NONE;
    }

    /** Lines for a person under the report's tables, such as why a figure is missing. */
    default List<String> notes() {
        return List.of();
    }

    /**
     * What the part starts once the host has run its first second (at once when attached), which
     * a host that lives a second does not need; called once, on {@code mech-start}, after every
     * part of the early stage started and before the JFR stream opens.
     */
    default void startDeferred() {
    }

    /**
     * Whether the part needs mech's JFR stream opened after the host's first second, though it
     * starts before it ({@link PartSpec.Stage#EARLY}); a part that reads JFR only when something
     * needs it asks through {@link Offers#jfrDemand} instead. Asked once, on {@code mech-start},
     * after the deferral. Parts of the later stages that declare {@link PartSpec#withoutJfr}
     * have it opened for them.
     */
    default boolean wantsJfrAtOnce() {
        return false;
    }

    /**
     * Subscribes the part to the events it refines its findings with, once mech's JFR stream
     * opens: called once, for every part started by then, before the stream starts, on
     * {@code mech-start} after the deferral or on {@code mech-jfr-open} when a part asked for it
     * later; not at all when no stream opens (default nothing).
     *
     * @param stream mech's JFR stream, not started yet
     */
    default void subscribe(final RecordingStream stream) {
    }

    /**
     * Brings the part's findings up to date before the final report; called once at shutdown.
     *
     * @param deadline the {@link System#nanoTime} by which it must return: the host's exit waits
     */
    default void settle(final long deadline) {
    }

    /**
     * Writes what the part has left to write, once every part has settled and before the final
     * report; called once at shutdown, in the order the parts started.
     */
    default void close() {
    }
}
