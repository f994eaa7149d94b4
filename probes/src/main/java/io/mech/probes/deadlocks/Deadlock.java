package io.mech.probes.deadlocks;

import java.util.List;

/**
 * Threads that wait for each other in a cycle: none of them can run again.
 *
 * @param waiters        the cycle, each waiting for a lock the next one holds, starting with the
 *                       thread of the lowest id so that one cycle is always told the same way
 * @param firstSeenMillis when a check first found this cycle, in epoch milliseconds
 */
public record Deadlock(List<Waiter> waiters, long firstSeenMillis) {

    /** Copies the cycle. */
    public Deadlock {
        waiters = List.copyOf(waiters);
    }
}
