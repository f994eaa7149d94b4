package io.mech.probes.deadlocks;

import java.util.List;

/**
 * What the deadlock probe knows as of its last check. Immutable.
 *
 * @param deadlocks    the cycles found, each once, in the order they were first seen; a deadlock
 *                     never ends, so they are never removed
 * @param checks       how many checks ran
 * @param periodMillis the time between checks
 */
public record DeadlockSnapshot(List<Deadlock> deadlocks, long checks, long periodMillis) {

    /** Copies the cycles. */
    public DeadlockSnapshot {
        deadlocks = List.copyOf(deadlocks);
    }

    /** @return how many threads are deadlocked */
    public int threads() {
        int threads = 0;
        for (final Deadlock deadlock : deadlocks) {
            threads += deadlock.waiters().size();
        }
        return threads;
    }
}
