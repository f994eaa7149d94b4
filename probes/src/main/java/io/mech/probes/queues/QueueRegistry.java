package io.mech.probes.queues;

import io.mech.probes.MechThreads;
import java.util.List;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.ToIntFunction;

/**
 * The queues the probe tracks, weakly held, at most {@link QueueBridge#SLOTS}: each sits in the
 * bridge slot its counters use, found from its identity hash as the woven code finds it. A queue
 * is registered once however many of its constructors return (chaining hands it over twice, an
 * application subclass more), only when an application frame created it, and only while the
 * stack-walk rate limit allows; the rest are counted. Queues mech made are neither registered nor
 * counted: those made on mech's threads (its executors, the HTTP server's, JFR's as mech's stream
 * starts), those mech's code made on any thread, and those made on JFR's threads with no
 * application frame (see {@link MechThreads}). Slots of collected queues are freed by
 * {@link #release}, which the sampler calls when it finds a reference cleared.
 *
 * <p>Guarantees: {@link #applyAsInt} runs on the host's thread inside its constructor, never throws,
 * and allocates only for a queue it registers (a stack walk, the entry and its ring); on mech's
 * threads it reads the thread's name and returns.
 */
final class QueueRegistry implements ToIntFunction<Object> {

    /** Identity hashes of the last few queues left out, so their chained constructors walk no second stack. */
    private static final int REJECTED = 16;

    private final int[] owners;
    private final long[] cells;
    private final long sampleNanos;
    private final SiteFinder sites;
    private final AtomicReferenceArray<TrackedQueue> entries = new AtomicReferenceArray<>(QueueBridge.SLOTS);
    /**
     * Guarded by this, not by the array: host threads take the lock inside their constructors, and
     * the lock probe knows a monitor of mech's class for mech's, an int[] it could not.
     */
    private final int[] rejected = new int[REJECTED];
    private int rejectedNext;
    final AtomicLong jdkInternal = new AtomicLong();
    final AtomicLong unnamed = new AtomicLong();
    final AtomicLong full = new AtomicLong();
    final AtomicLong released = new AtomicLong();

    /** @param application the application's packages, for the sites: see {@link SiteFinder} */
    QueueRegistry(final int[] owners, final long[] cells, final long sampleNanos, final List<String> application) {
        this.sites = new SiteFinder(application);
        this.owners = owners;
        this.cells = cells;
        this.sampleNanos = sampleNanos;
    }

    /** @return the entry in a slot, or null */
    TrackedQueue at(final int slot) {
        return entries.get(slot);
    }

    /** @return dequeues counted in a slot since it was claimed */
    long dequeues(final int slot) {
        return sum(slot, 0);
    }

    /** @return offers counted in a slot since it was claimed */
    long enqueues(final int slot) {
        return sum(slot, QueueBridge.STRIPES * QueueBridge.LINE);
    }

    private long sum(final int slot, final int direction) {
        long total = 0;
        for (int stripe = 0; stripe < QueueBridge.STRIPES; stripe++) {
            total += cells[QueueBridge.LINE + slot * QueueBridge.SLOT_LONGS + direction + stripe * QueueBridge.LINE];
        }
        return total;
    }

    /** @return the slot of a queue registered now or before, -1 for an executor or a queue left out */
    @Override
    public int applyAsInt(final Object created) {
        try {
            if (MechThreads.currentIsMechs()) {
                return -1;
            }
            if (created instanceof ThreadPoolExecutor) {
                executor((ThreadPoolExecutor) created);
                return -1;
            }
            final TrackedQueue entry = queue(created, null);
            return entry == null ? -1 : entry.slot;
        } catch (final Throwable ignored) {
            // never into the host's constructor; the queue goes untracked
            return -1;
        }
    }

    private void executor(final ThreadPoolExecutor executor) throws Throwable {
        final Object queue = executor.getQueue();
        final int hash = System.identityHashCode(executor);
        if (queue == null || wasRejected(hash)) {
            return;
        }
        TrackedQueue entry = find(queue);
        if (entry != null && entry.executor != null && entry.executor.get() == executor) {
            return;
        }
        final String site = sites.find(executor);
        if (!named(site, hash)) {
            return;
        }
        if (entry == null) {
            entry = queue(queue, site);
        }
        if (entry != null) {
            entry.executorType = executor.getClass().getName();
            entry.executor = new java.lang.ref.WeakReference<>(executor);
        }
    }

    /** Registers a queue unless known; the site is given for an executor's queue. @return its entry, or null */
    private TrackedQueue queue(final Object queue, final String givenSite) throws Throwable {
        final TrackedQueue known = find(queue);
        final int hash = System.identityHashCode(queue);
        if (known != null || givenSite == null && wasRejected(hash)) {
            return known;
        }
        final String site = givenSite != null ? givenSite : sites.find(queue);
        if (!named(site, hash)) {
            return null;
        }
        final Class<?> type = queue.getClass();
        final Shape shape = Shape.of(type, QueueTypes.of(type));
        synchronized (this) {
            final TrackedQueue again = find(queue);
            if (again != null) {
                return again;
            }
            for (int i = 0; i < QueueBridge.PROBES; i++) {
                final int slot = (hash + i) & (QueueBridge.SLOTS - 1);
                if (owners[slot] == 0 && entries.get(slot) == null) {
                    final int from = QueueBridge.LINE + slot * QueueBridge.SLOT_LONGS;
                    java.util.Arrays.fill(cells, from, from + QueueBridge.SLOT_LONGS, 0L);
                    final TrackedQueue entry = new TrackedQueue(queue, type.getName(), site, shape, slot, sampleNanos);
                    entries.set(slot, entry);
                    owners[slot] = hash;
                    return entry;
                }
            }
        }
        full.incrementAndGet();
        return null;
    }

    /**
     * Leaves out a queue with no application site, remembered so that its chained constructors
     * walk no second stack, and counts it: as the JDK's own when no frame outside the JDK made it
     * (on a thread that is not JFR's), as unnamed past the rate limit; mech's are not counted.
     *
     * @return whether the site names an application frame
     */
    private boolean named(final String site, final int hash) {
        if (site != null && !site.equals(SiteFinder.LIMITED) && !site.equals(SiteFinder.MECHS)) {
            return true;
        }
        if (site == null) {
            if (!MechThreads.isJfrs(Thread.currentThread().getName())) {
                jdkInternal.incrementAndGet();
            }
        } else if (site.equals(SiteFinder.LIMITED)) {
            unnamed.incrementAndGet();
        }
        synchronized (this) {
            rejected[rejectedNext] = hash;
            rejectedNext = (rejectedNext + 1) % REJECTED;
        }
        return false;
    }

    private boolean wasRejected(final int hash) {
        synchronized (this) {
            for (final int r : rejected) {
                if (r == hash) {
                    return true;
                }
            }
            return false;
        }
    }

    /** @return the entry of a registered queue, or null */
    private TrackedQueue find(final Object queue) {
        final int hash = System.identityHashCode(queue);
        for (int i = 0; i < QueueBridge.PROBES; i++) {
            final int slot = (hash + i) & (QueueBridge.SLOTS - 1);
            if (owners[slot] == hash) {
                final TrackedQueue entry = entries.get(slot);
                if (entry != null && entry.queue.get() == queue) {
                    return entry;
                }
            }
        }
        return null;
    }

    /** Frees the slot of a collected queue. */
    synchronized void release(final int slot) {
        owners[slot] = 0;
        entries.set(slot, null);
        released.incrementAndGet();
    }
}
