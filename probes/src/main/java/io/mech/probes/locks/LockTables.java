package io.mech.probes.locks;

import io.mech.probes.JdkCode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The mutable aggregation behind {@link LockSnapshot}: blocking rows by kind, lock class and call
 * site, inflations by class and cause. Thread-safe: one feeding thread (the JFR stream or the
 * sampler) and any number of snapshot readers, all under this object's monitor; events arrive at
 * most a few hundred per second once thresholds apply, so the monitor is never contended hot.
 */
final class LockTables {

    /** Owner threads remembered per row. */
    private static final int MAX_THREADS = 16;

    private record SiteKey(LockKind kind, String lockClass, String callSite) {
    }

    private record InflationKey(String monitorClass, String cause) {
    }

    /** One row being summed. */
    private static final class Row {
        long count;
        long totalNanos;
        long maxNanos;
        final long[] buckets = new long[BlockedHistogram.BUCKETS];
        final Map<String, Long> threads = new HashMap<>();
    }

    private final int maxRows;
    private final Map<SiteKey, Row> sites = new HashMap<>();
    private final Map<InflationKey, Long> inflations = new HashMap<>();
    private long deflations;
    private long monitorsInUse = -1;
    private long dropped;
    private boolean exiting;

    LockTables(final int maxRows) {
        this.maxRows = maxRows;
    }

    /**
     * @param thread the owner (or notifier) to remember, null if none
     */
    synchronized void block(final LockKind kind, final String lockClass, final String callSite, final long nanos,
                            final String thread) {
        if (exiting) {
            return;
        }
        final SiteKey key = new SiteKey(kind, lockClass, callSite);
        Row row = sites.get(key);
        if (row == null) {
            if (sites.size() >= maxRows) {
                dropped++;
                return;
            }
            row = new Row();
            sites.put(key, row);
        }
        row.count++;
        row.totalNanos += nanos;
        row.maxNanos = Math.max(row.maxNanos, nanos);
        row.buckets[BlockedHistogram.bucket(nanos)]++;
        if (thread != null && (row.threads.size() < MAX_THREADS || row.threads.containsKey(thread))) {
            row.threads.merge(thread, 1L, Long::sum);
        }
    }

    synchronized void inflate(final String monitorClass, final String cause) {
        if (exiting) {
            return;
        }
        final InflationKey key = new InflationKey(monitorClass, cause);
        if (inflations.size() >= maxRows && !inflations.containsKey(key)) {
            dropped++;
            return;
        }
        inflations.merge(key, 1L, Long::sum);
    }

    synchronized void deflate() {
        if (!exiting) {
            deflations++;
        }
    }

    synchronized void monitorsInUse(final long count) {
        if (!exiting) {
            monitorsInUse = count;
        }
    }

    /**
     * From now on the tables take nothing: the host is exiting, and what its threads do then (the
     * JVM joining the shutdown hooks, mech's among them; java.util.logging's cleaner, which mech's
     * HTTP server loaded) is exit bookkeeping, not the run's contention.
     */
    synchronized void exiting() {
        exiting = true;
    }

    synchronized LockSnapshot snapshot(final LockSnapshot.Source source, final long thresholdNanos,
                                       final boolean counting, final List<JucContention> belowThreshold) {
        final List<LockSite> siteRows = new ArrayList<>(sites.size());
        for (final Map.Entry<SiteKey, Row> e : sites.entrySet()) {
            final Row row = e.getValue();
            final List<ThreadCount> threads = new ArrayList<>(row.threads.size());
            row.threads.forEach((name, count) -> threads.add(new ThreadCount(name, count)));
            threads.sort(Comparator.comparingLong(ThreadCount::count).reversed().thenComparing(ThreadCount::thread));
            siteRows.add(new LockSite(e.getKey().kind(), e.getKey().lockClass(), e.getKey().callSite(), row.count,
                row.totalNanos, row.maxNanos, BlockedHistogram.of(row.buckets), threads));
        }
        siteRows.sort(Comparator.comparingLong(LockSite::totalNanos).reversed()
            .thenComparing(Comparator.comparingLong(LockSite::count).reversed())
            .thenComparing(LockSite::lockClass).thenComparing(LockSite::callSite));
        final List<Inflation> inflationRows = new ArrayList<>(inflations.size());
        inflations.forEach((key, count) -> inflationRows.add(new Inflation(key.monitorClass(), key.cause(), count)));
        inflationRows.sort(Comparator.comparingLong(Inflation::count).reversed()
            .thenComparing(Inflation::monitorClass).thenComparing(Inflation::cause));
        return new LockSnapshot(source, thresholdNanos, counting, siteRows, belowThreshold, inflationRows,
            deflations, monitorsInUse, dropped);
    }

    /**
     * Whether a frame's class is the JDK's. The first frame outside the JDK is the call site; when
     * it is mech's (io.mech.probes.MechCode: its relocated libraries included, its example kernels
     * not), the lock was mech's doing.
     */
    static boolean jdk(final String className) {
        return JdkCode.contains(className);
    }

    /**
     * Whether a lock is one of JFR's own (jdk.jfr.internal): blocking on it or inflating it is
     * JFR's bookkeeping, in which mech's JFR stream always takes part (its flushes and chunk
     * rotations take the locks a host's own recording takes), so it is left out whichever thread
     * blocked; the host's code could not change it anyway.
     */
    static boolean jfrsLock(final String lockClass) {
        return lockClass.startsWith("jdk.jfr.internal.");
    }

    /** @return class.method:line, or class.method without a line number */
    static String frame(final String className, final String method, final int line) {
        return line > 0 ? className + "." + method + ":" + line : className + "." + method;
    }

    /**
     * The lock a parked thread waited for, from the class of its park blocker: the enclosing lock
     * of ReentrantLock's and ReentrantReadWriteLock's Sync classes, StampedLock itself; null for
     * any other blocker (latches, conditions, queues, futures), which are waits, not contention.
     */
    static String jucLockOf(final String blockerClass) {
        if (blockerClass == null) {
            return null;
        }
        if (blockerClass.startsWith("java.util.concurrent.locks.ReentrantLock$")
            && blockerClass.endsWith("Sync")) {
            return "java.util.concurrent.locks.ReentrantLock";
        }
        if (blockerClass.startsWith("java.util.concurrent.locks.ReentrantReadWriteLock$")
            && blockerClass.endsWith("Sync")) {
            return "java.util.concurrent.locks.ReentrantReadWriteLock";
        }
        if (blockerClass.equals("java.util.concurrent.locks.StampedLock")) {
            return blockerClass;
        }
        return null;
    }
}
