package io.mech.probes.queues;

import java.util.List;

/**
 * What the queue probe knows at one moment: every registered queue, deepest and fastest-growing
 * first, the back-pressure episodes raised so far, and what the registry left out.
 *
 * @param installed     whether the weaving is in place (false before, or when it failed)
 * @param sampleNanos   the sample period
 * @param queues        the registered queues and executors, deepest first, then fastest-growing
 * @param collected     the last figures of queues garbage collected since, oldest first (at most {@link #MAX_COLLECTED})
 * @param alerts        the latest back-pressure episodes, oldest first (at most {@link #MAX_ALERTS})
 * @param jdkInternal   queues created with no application frame on the stack (the JDK's own), or by another
 *                      library queue's constructor (a part of it): left out
 * @param unnamed       queues created while the stack-walk rate limit was spent: left out
 * @param registryFull  queues left out because the registry was full
 * @param released      queues dropped from the registry after they were garbage collected
 * @param corrected     times a counted queue's depth was corrected to its own {@code size()}: elements
 *                      had moved by a way mech does not count (an internal error of mech's counting)
 */
public record QueueSnapshot(boolean installed, long sampleNanos, List<QueueStats> queues, List<QueueStats> collected,
                            List<QueueAlert> alerts,
                            long jdkInternal, long unnamed, long registryFull, long released, long corrected) {

    /** Alerts a snapshot keeps. */
    public static final int MAX_ALERTS = 64;
    /** Collected queues a snapshot keeps. */
    public static final int MAX_COLLECTED = 32;

    /** Copies. */
    public QueueSnapshot {
        queues = List.copyOf(queues);
        collected = List.copyOf(collected);
        alerts = List.copyOf(alerts);
    }
}
