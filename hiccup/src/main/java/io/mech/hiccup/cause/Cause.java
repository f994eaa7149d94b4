package io.mech.hiccup.cause;

/** What stopped the JVM's threads. */
public enum Cause {
    /** A garbage-collection pause. */
    GC("gc"),
    /** A safepoint for another VM operation. */
    SAFEPOINT("safepoint"),
    /**
     * The time to safepoint: threads already stopped for a safepoint wait for those still
     * running to reach one (a long copy, a counted loop without polls). Told apart from the
     * operation that follows, whose own cause is one of the others.
     */
    TTSP("ttsp"),
    /**
     * A safepoint for a VM operation mech itself asked for, such as redefining classes to weave
     * or unweave a probe: mech's own cost, told apart so that it is never put down to the host.
     */
    MECH("mech"),
    /**
     * Nothing in the JVM, on evidence: the control JVM stalled too, the machine's steal time or
     * the cgroup's throttling rose across the stall, or every source that could have named a JVM
     * cause was recording and said nothing. The operating system or the hypervisor took the CPU away.
     */
    OS("os"),
    /**
     * No evidence either way: nothing that records the JVM's pauses covered the stall (HotSpot's
     * counters unreadable and JFR not yet recording, or JFR's events for it not delivered by
     * exit), so neither a JVM cause nor the OS can be named. Said as plainly as the others.
     */
    UNKNOWN("unknown");

    private final String tag;

    Cause(final String tag) {
        this.tag = tag;
    }

    /** The name used as log tag, metric label and JFR field. */
    public String tag() {
        return tag;
    }
}
