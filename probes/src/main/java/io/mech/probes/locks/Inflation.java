package io.mech.probes.locks;

import java.util.Objects;

/**
 * Monitors of one class inflated for one cause (jdk.JavaMonitorInflate).
 *
 * @param monitorClass the monitor's class; "unknown" when JFR could not name it
 * @param cause        JFR's cause as it names it, e.g. "Monitor Enter" (contention),
 *                     "Monitor Wait" (Object.wait), "Monitor Hash Code"
 * @param count        inflations seen
 */
public record Inflation(String monitorClass, String cause, long count) {
    /** Validates. */
    public Inflation {
        Objects.requireNonNull(monitorClass, "monitorClass");
        Objects.requireNonNull(cause, "cause");
    }

    /** @return true when the cause is a wait or notify rather than contention */
    public boolean byWait() {
        return cause.contains("Wait") || cause.contains("Notify");
    }
}
