package io.mech.probes.locks;

/** How a thread was held up by a lock, and which JFR event says so. */
public enum LockKind {
    /** Blocked entering a monitor ({@code synchronized}): jdk.JavaMonitorEnter. Contention. */
    MONITOR_ENTER("monitor contention",
        "threads queue for this monitor, inflated by contention: shorten what it guards, split it, or go lock-free"),
    /** Parked acquiring a java.util.concurrent lock: jdk.ThreadPark on the lock's Sync. Contention. */
    JUC_LOCK("j.u.c. lock contention",
        "threads park for this lock (no monitor involved): shorten what it guards, split it, or use a read-write lock"),
    /**
     * Parked in a java.util.concurrent synchronizer other than a lock, from the application's code:
     * jdk.ThreadPark on a hand-off queue, a semaphore's permit, a latch, a condition or a future,
     * named by the class the code called. A pool's borrow waits so for an item another thread
     * holds, which is contention for the pool; a latch or a future waits for work to finish, which
     * is not: the probe cannot tell them apart, so the kind is not {@link #isContention()} and
     * triggers no capture. A worker waiting for its next task is not reported at all (see the
     * locks doc).
     */
    JUC_WAIT("j.u.c. wait",
        "threads park here until another thread hands over, releases or counts down; for a pool's borrow, "
            + "the pool is too small for its borrowers or its items are held too long"),
    /** Waiting in {@code Object.wait}: jdk.JavaMonitorWait. Waiting, not contention. */
    MONITOR_WAIT("monitor wait",
        "threads wait here for a notify; Object.wait inflated this monitor: wait/notify, not contention"),
    /**
     * A virtual thread blocked while pinned to its carrier: jdk.VirtualThreadPinned (JDK 21 and
     * later). Not contention: the carrier, not a lock, is what others wait for.
     */
    PINNED("virtual thread pinned",
        "a virtual thread blocked here without giving back its carrier, which ran nothing else meanwhile: "
            + "do not block inside a class initializer or under a native frame (before JDK 24, inside synchronized either)");

    private final String label;
    private final String reading;

    LockKind(final String label, final String reading) {
        this.label = label;
        this.reading = reading;
    }

    /** @return what rows of this kind mean for a person, and what usually helps */
    public String reading() {
        return reading;
    }

    /** @return a short phrase for reports, such as "monitor contention" */
    public String label() {
        return label;
    }

    /** @return true for the kinds that are contention rather than waiting or pinning */
    public boolean isContention() {
        return this == MONITOR_ENTER || this == JUC_LOCK;
    }
}
