package io.mech.probes.allocation;

import java.util.List;

/**
 * What the allocation probe knows as of its last check. Immutable.
 *
 * @param checks       how many checks ran; the first only takes the counters' starting point
 * @param watchedNanos how long the probe has watched, from its first check to its last
 * @param bytes        bytes every thread alive at some check allocated while watched, mech's own included
 * @param lastRate     bytes per second over the last period, every thread
 * @param top          the host's threads that allocated most while watched, most first, at most
 *                     {@link AllocationProbe#TOP}, none that allocated nothing; mech's and JFR's
 *                     threads are never among them
 */
public record AllocationSnapshot(long checks, long watchedNanos, long bytes, double lastRate, List<ThreadAllocation> top) {

    /** Copies the threads. */
    public AllocationSnapshot {
        top = List.copyOf(top);
    }

    /** @return bytes per second over the whole time watched; 0 before two checks */
    public double meanRate() {
        return watchedNanos == 0 ? 0 : bytes * 1e9 / watchedNanos;
    }
}
