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
     * The process's CPU cgroup was throttled: it had spent its quota for the period (a container's
     * CPU limit), from the cgroup's {@code cpu.stat} across the stall.
     */
    THROTTLED("throttled"),
    /**
     * The meter was ready to run and waited for a core, from its thread's run-queue wait in
     * {@code /proc/thread-self/schedstat}: more runnable threads than cores.
     */
    RUNQUEUE("runqueue"),
    /** The hypervisor ran another guest: the machine's steal time in {@code /proc/stat} rose by half the stall or more. */
    STEAL("steal"),
    /**
     * The meter's thread waited for memory to be paged in: it took major faults
     * ({@code /proc/thread-self/stat}) in the stall or the few rounds before it, and no other
     * figure of the kernel's explains the rest.
     */
    PAGING("paging"),
    /**
     * Nothing ran: for half the stall or more the meter was neither at a safepoint, nor waiting for
     * a core, nor throttled, and took no major fault, so it was not runnable at all: a SIGSTOP or a
     * cgroup freezer (the process alone), or a paused machine (the control JVM stalled too).
     */
    FROZEN("frozen"),
    /**
     * Nothing in the JVM, on evidence, that the kernel's figures do not name further: the control
     * JVM stalled too, or every source that could have named a JVM cause was recording and said
     * nothing, where the kernel keeps no figures for the meter's thread, or they explain less than
     * half of the stall.
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
