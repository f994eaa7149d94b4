package io.mech.agent.profiler;

/** How the profiler captures ({@code profiler.mode}). */
public enum ProfilerMode {
    /** A capture starts sampling at its trigger. */
    TRIGGER,
    /** A low-rate profile runs all the time, and a capture is the window around its trigger. */
    CONTINUOUS
}
