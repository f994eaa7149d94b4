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
 * @param capacity        the bound the queue's own contract gives, {@link #UNBOUNDED} for none,
 *                        {@link #UNKNOWN} when mech cannot read it
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
 *
 * <p>A bounded queue never holds more than its bound, so a depth read above it (a counted queue
 * whose dequeue path mech does not see, indices read while they moved) is taken as the bound:
 * utilisation is never above 100%.
 */
public record QueueStats(String kind, String type, String queueType, String site, long depth, boolean atLeast, long maxDepth, double meanDepth,
                         long capacity, long enqueued, long dequeued, double enqueueRate, double dequeueRate,
                         double growthPerSecond, double waitSeconds, double windowSeconds, int active, String alerting,
                         long alerts, long samples) {
    /** The capacity of a queue with no bound. */
    public static final long UNBOUNDED = -1;
    /** The capacity of a queue whose bound mech cannot read: never taken for a bound. */
    public static final long UNKNOWN = -2;

    /** Validates, and holds the depths of a bounded queue within its bound. */
    public QueueStats {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(queueType, "queueType");
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(alerting, "alerting");
        if (capacity < UNKNOWN) {
            throw new IllegalArgumentException("capacity " + capacity);
        }
        if (capacity >= 0) {
            depth = Math.min(depth, capacity);
            maxDepth = Math.min(maxDepth, capacity);
            meanDepth = Math.min(meanDepth, capacity);
        }
    }

    /** @return whether the queue has a bound mech read */
    public boolean bounded() {
        return capacity >= 0;
    }

    /** @return "bounded", "unbounded" or "unknown" */
    public String bound() {
        return bound(capacity);
    }

    /** @return "bounded", "unbounded" or "unknown" for a capacity */
    static String bound(final long capacity) {
        return capacity >= 0 ? "bounded" : capacity == UNBOUNDED ? "unbounded" : "unknown";
    }

    /** @return capacity minus depth, -1 when unbounded or unknown */
    public long remaining() {
        return capacity >= 0 && depth >= 0 ? capacity - depth : -1;
    }

    /** @return depth over capacity, from 0 to 1; NaN when unbounded or unknown */
    public double utilisation() {
        return utilisation(depth, capacity);
    }

    /** @return depth over capacity, at most 1; NaN when either is unknown or there is no bound */
    static double utilisation(final long depth, final long capacity) {
        if (capacity == 0) {
            return 0;
        }
        return capacity > 0 && depth >= 0 ? Math.min(1.0, (double) depth / capacity) : Double.NaN;
    }
}
