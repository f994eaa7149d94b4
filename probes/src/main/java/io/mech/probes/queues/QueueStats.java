package io.mech.probes.queues;

import java.util.Objects;

/**
 * One queue (or executor) as its last sample left it.
 *
 * @param kind            "queue" or "executor"
 * @param type            the queue's class, or the executor's
 * @param queueType       the queue's class (an executor's work queue for an executor)
 * @param site            the first application frame that created it
 * @param depth           elements (queued tasks) at the last sample; -1 when unknown
 * @param atLeast         whether depth is a bounded walk's floor: at least that many
 * @param maxDepth        the deepest sample
 * @param meanDepth       mean depth over the smoothing window, NaN unknown
 * @param capacity        the bound, -1 for none
 * @param enqueued        enqueues since registration (derived from dequeues and depth for the JDK's queues), -1 unknown
 * @param dequeued        dequeues since registration, -1 unknown
 * @param enqueueRate     per second over the smoothing window, NaN unknown
 * @param dequeueRate     per second over the smoothing window, NaN unknown
 * @param growthPerSecond depth change per second over the window, NaN unknown
 * @param waitSeconds     Little's-law wait: mean depth over the window over the dequeue rate;
 *                        NaN before the window spans 10 s or when the rate is about zero
 * @param windowSeconds   the span the rates were taken over
 * @param active          an executor's active tasks, -1 for a queue
 * @param alerting        the reason of the episode in progress, "" when none
 * @param alerts          back-pressure episodes since registration
 * @param samples         samples taken
 */
public record QueueStats(String kind, String type, String queueType, String site, long depth, boolean atLeast, long maxDepth, double meanDepth,
                         long capacity, long enqueued, long dequeued, double enqueueRate, double dequeueRate,
                         double growthPerSecond, double waitSeconds, double windowSeconds, int active, String alerting,
                         long alerts, long samples) {
    /** Validates. */
    public QueueStats {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(queueType, "queueType");
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(alerting, "alerting");
    }

    /** @return capacity minus depth, -1 when unbounded or unknown */
    public long remaining() {
        return capacity >= 0 && depth >= 0 ? Math.max(0, capacity - depth) : -1;
    }

    /** @return depth over capacity, NaN when unbounded or unknown */
    public double utilisation() {
        return capacity > 0 && depth >= 0 ? (double) depth / capacity : capacity == 0 ? 0 : Double.NaN;
    }
}
