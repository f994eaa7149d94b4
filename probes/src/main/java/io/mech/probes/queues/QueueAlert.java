package io.mech.probes.queues;

import java.util.Objects;

/**
 * The start of a back-pressure episode on one queue: a bounded queue that stayed at or above the
 * alert utilisation, or an unbounded one that stayed deep or kept growing, for
 * {@link QueueSettings#RUNS} samples or more.
 *
 * @param epochMillis     when the sample that raised it was taken
 * @param kind            "queue" or "executor"
 * @param type            the queue's class (an executor's own class for an executor)
 * @param site            the first application frame that created it
 * @param reason          {@code full}, {@code deep} or {@code growing}
 * @param depth           elements (queued tasks) at that sample
 * @param capacity        the bound, {@link QueueStats#UNBOUNDED} for none, {@link QueueStats#UNKNOWN} when unread
 * @param utilisation     depth over capacity, at most 1; NaN when unbounded or unknown
 * @param growthPerSecond depth change per second over the smoothing window
 * @param enqueueRate     per second, NaN when unknown
 * @param dequeueRate     per second, NaN when unknown
 */
public record QueueAlert(long epochMillis, String kind, String type, String site, String reason, long depth, long capacity,
                         double utilisation, double growthPerSecond, double enqueueRate, double dequeueRate) {
    /** Validates. */
    public QueueAlert {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(reason, "reason");
        if (capacity >= 0) {
            depth = Math.min(depth, capacity);
            utilisation = QueueStats.utilisation(depth, capacity);
        }
    }
}
