package io.mech.probes.locks;

import java.util.Objects;

/**
 * Every contended acquisition of one kind of java.util.concurrent lock, however short,
 * counted by advice on AbstractQueuedSynchronizer's acquire slow path: an acquisition whose
 * first attempt failed because another thread held the lock. No call site: that would cost a
 * stack walk per acquisition; JFR's park events ({@link LockSite}) name the sites of the long ones.
 *
 * @param lockClass  java.util.concurrent.locks.ReentrantLock or ReentrantReadWriteLock
 * @param mode       "" for ReentrantLock, "write" or "read" for ReentrantReadWriteLock
 * @param count      contended acquisitions (including those that timed out or were interrupted)
 * @param totalNanos time spent in the slow path, summed
 * @param maxNanos   the longest
 * @param histogram  slow-path times
 */
public record JucContention(String lockClass, String mode, long count, long totalNanos, long maxNanos,
                            BlockedHistogram histogram) {
    /** Validates. */
    public JucContention {
        Objects.requireNonNull(lockClass, "lockClass");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(histogram, "histogram");
    }
}
