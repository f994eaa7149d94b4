package io.mech.probes.profiler;

import java.util.Locale;

/**
 * What a capture samples. None asks for hardware counters: virtual machines and containers
 * rarely have them, and async-profiler's {@code cpu} falls back to a timer engine by itself where
 * perf events are refused.
 */
public enum ProfileEvent {
    /** Every thread, running or not, on a wall-clock timer: shows where threads wait. */
    WALL,
    /** Threads on a CPU (perf software clock, or the ctimer engine where perf is refused). */
    CPU,
    /** Contended monitor and java.util.concurrent lock acquisitions. */
    LOCK,
    /** Allocations, sampled by TLAB. */
    ALLOC;

    /** async-profiler's name of the event. */
    public String asyncProfilerName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Reads an event name.
     *
     * @throws IllegalArgumentException naming the accepted names
     */
    public static ProfileEvent parse(final String text) {
        for (final ProfileEvent event : values()) {
            if (event.asyncProfilerName().equals(text)) {
                return event;
            }
        }
        throw new IllegalArgumentException("event must be wall, cpu, lock or alloc, got '" + text + "'");
    }
}
