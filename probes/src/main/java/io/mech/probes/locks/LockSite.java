package io.mech.probes.locks;

import java.util.List;
import java.util.Objects;

/**
 * Blocking on one lock class from one call site, as JFR reported it: only blocks at least as
 * long as the event threshold ({@link LockSnapshot#thresholdNanos()}).
 *
 * @param kind       contention on a monitor or a j.u.c. lock, a wait on a monitor or another j.u.c.
 *                   synchronizer, or a pinned virtual thread
 * @param lockClass  the monitor's class, or the j.u.c. lock's class (ReentrantLock rather than
 *                   its NonfairSync), or for {@link LockKind#JUC_WAIT} the synchronizer the
 *                   application called (SynchronousQueue, Semaphore); "unknown" when JFR could not name it
 * @param callSite   the top application frame, {@code class.method:line}: the first frame
 *                   outside java., javax., jdk., sun. and com.sun.; the top frame when all are
 * @param count      blocks (or waits) seen
 * @param totalNanos their summed duration
 * @param maxNanos   the longest
 * @param histogram  their durations
 * @param topThreads the threads that most often held the monitor before the waiter got it (for
 *                   waits: that notified), most first; empty for j.u.c. locks, whose owner JFR
 *                   does not record
 */
public record LockSite(LockKind kind, String lockClass, String callSite, long count, long totalNanos,
                       long maxNanos, BlockedHistogram histogram, List<ThreadCount> topThreads) {
    /** Validates and copies. */
    public LockSite {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(lockClass, "lockClass");
        Objects.requireNonNull(callSite, "callSite");
        Objects.requireNonNull(histogram, "histogram");
        topThreads = List.copyOf(topThreads);
    }
}
