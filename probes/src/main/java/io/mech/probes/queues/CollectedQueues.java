package io.mech.probes.queues;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The last figures of queues garbage collected while the probe ran, at most
 * {@link QueueSnapshot#MAX_COLLECTED}, for the report: a pool that filled while a task ran and was
 * dropped when it ended (a server stopped before exit) is what the report must still show. When
 * full, the least telling queue goes: one that never alerted before one that did, then the one
 * that ran least deep, then the one that carried least traffic, and of equals the oldest. A
 * stopped server leaves dozens of idle buffers' queues beside its one busy job queue; dropping by
 * age alone lost the job queue to them.
 *
 * <p>Guarantees: not thread safe; the probe calls it under its sampling lock.
 */
final class CollectedQueues {

    /** Least telling first. */
    private static final Comparator<QueueStats> TELLING = Comparator.comparingLong(QueueStats::alerts)
        .thenComparingLong(QueueStats::maxDepth)
        .thenComparingLong(q -> q.enqueued() + q.dequeued());

    /** Oldest first. */
    private final List<QueueStats> kept = new ArrayList<>(QueueSnapshot.MAX_COLLECTED);

    /** Keeps a collected queue's last figures, unless it tells less than every queue kept and there is no room. */
    void add(final QueueStats last) {
        if (kept.size() < QueueSnapshot.MAX_COLLECTED) {
            kept.add(last);
            return;
        }
        int least = 0;
        for (int i = 1; i < kept.size(); i++) {
            if (TELLING.compare(kept.get(i), kept.get(least)) < 0) {
                least = i;
            }
        }
        if (TELLING.compare(last, kept.get(least)) > 0) {
            kept.remove(least);
            kept.add(last);
        }
    }

    /** @return the queues kept, oldest first: a read-only view, which the snapshot copies under the probe's sampling lock */
    List<QueueStats> list() {
        return Collections.unmodifiableList(kept);
    }
}
