package io.mech.probes.locks;

/** How a thread was held up by a lock, and which JFR event says so. */
public enum LockKind {
    /** Blocked entering a monitor ({@code synchronized}): jdk.JavaMonitorEnter. Contention. */
    MONITOR_ENTER("monitor contention"),
    /** Parked acquiring a java.util.concurrent lock: jdk.ThreadPark on the lock's Sync. Contention. */
    JUC_LOCK("j.u.c. lock contention"),
    /** Waiting in {@code Object.wait}: jdk.JavaMonitorWait. Waiting, not contention. */
    MONITOR_WAIT("monitor wait");

    private final String label;

    LockKind(final String label) {
        this.label = label;
    }

    /** @return a short phrase for reports, such as "monitor contention" */
    public String label() {
        return label;
    }

    /** @return true for the kinds that are contention rather than waiting */
    public boolean isContention() {
        return this != MONITOR_WAIT;
    }
}
