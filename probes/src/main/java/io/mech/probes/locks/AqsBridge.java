package io.mech.probes.locks;

/**
 * Template of the bridge that counts contended acquisitions of {@code java.util.concurrent}
 * locks. It is never loaded under this name: {@link AqsCounting} renames its bytes into
 * {@code java.util.concurrent.locks} and defines it there, because advice woven into
 * AbstractQueuedSynchronizer can link only to classes the boot loader sees. So it refers to
 * nothing but {@code java.lang}, and mech reads its counters through {@link #cells()}.
 *
 * <p>Guarantees: {@link #contended} allocates nothing and takes no lock. Each thread writes the
 * stripe its id selects; stripes are {@value #PAD} longs (128 bytes) apart, so threads whose
 * ids differ modulo {@value #STRIPES} share no written cache line. Threads whose ids collide
 * may lose an update to a plain increment: the counts are exact up to {@value #STRIPES}
 * concurrently contending threads and close beyond. Readers see plain longs, possibly a little
 * stale. Acquisitions by mech's threads, JFR's and the JVM's own are not counted: see
 * {@link #notTheHosts}.
 */
final class AqsBridge {

    /** Stripes, a power of two; a thread's stripe is its id modulo this. */
    public static final int STRIPES = 64;
    /** Lock kinds: 0 ReentrantLock, 1 ReentrantReadWriteLock write, 2 ReentrantReadWriteLock read. */
    public static final int KINDS = 3;
    /** Blocked-time buckets; see {@link BlockedHistogram}. */
    public static final int BUCKETS = 24;
    /** Longs per kind in a stripe: count, total nanos, max nanos, then the buckets. */
    public static final int FIELDS = 3 + BUCKETS;
    /** 128 bytes of longs between stripes and before the first. */
    public static final int PAD = 16;
    /** Longs per stripe. */
    public static final int STRIDE = KINDS * FIELDS + PAD;

    private static final long[] CELLS = new long[PAD + STRIPES * STRIDE];

    private static final Class<?> RL_NONFAIR = find("java.util.concurrent.locks.ReentrantLock$NonfairSync");
    private static final Class<?> RL_FAIR = find("java.util.concurrent.locks.ReentrantLock$FairSync");
    private static final Class<?> RW_NONFAIR = find("java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync");
    private static final Class<?> RW_FAIR = find("java.util.concurrent.locks.ReentrantReadWriteLock$FairSync");
    /** The JDK's own threads outside the system group (Common-Cleaner, the virtual-thread unblocker). */
    private static final Class<?> INNOCUOUS = find("jdk.internal.misc.InnocuousThread");
    /** The virtual-thread scheduler's carriers (JDK 21 and later; null before). */
    private static final Class<?> CARRIER = find("jdk.internal.misc.CarrierThread");
    /** The root thread group, the JVM's service threads' own. */
    private static final ThreadGroup SYSTEM = root(Thread.currentThread().getThreadGroup());

    private AqsBridge() {
    }

    private static Class<?> find(final String name) {
        try {
            return Class.forName(name, false, AqsBridge.class.getClassLoader());
        } catch (final ClassNotFoundException e) {
            return null;
        }
    }

    private static ThreadGroup root(final ThreadGroup group) {
        ThreadGroup root = group;
        while (root.getParent() != null) {
            root = root.getParent();
        }
        return root;
    }

    /**
     * Called on entry to the acquire slow path.
     *
     * @param node the node argument: null for a fresh acquisition, a condition waiter's own when
     *             it re-acquires after a signal, which is not contention
     * @return System.nanoTime() for a fresh acquisition, else 0
     */
    public static long enter(final Object node) {
        return node == null ? System.nanoTime() : 0L;
    }

    /**
     * Called before each return of the acquire slow path.
     *
     * @param sync       the synchronizer
     * @param shared     whether a shared (read) acquisition
     * @param startNanos what {@link #enter} returned
     */
    public static void exit(final Object sync, final boolean shared, final long startNanos) {
        if (startNanos != 0L) {
            contended(sync, shared, startNanos);
        }
    }

    /**
     * Counts one contended acquisition.
     *
     * @param sync       the synchronizer, a lock's Sync or any other AQS (ignored)
     * @param shared     whether a shared (read) acquisition
     * @param startNanos System.nanoTime() when the slow path began
     */
    public static void contended(final Object sync, final boolean shared, final long startNanos) {
        final long nanos = System.nanoTime() - startNanos;
        final Class<?> type = sync.getClass();
        final int kind;
        if (type == RL_NONFAIR || type == RL_FAIR) {
            kind = 0;
        } else if (type == RW_NONFAIR || type == RW_FAIR) {
            kind = shared ? 2 : 1;
        } else {
            return;
        }
        final Thread thread = Thread.currentThread();
        if (notTheHosts(thread)) {
            return;
        }
        final long[] cells = CELLS;
        @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
        final int stripe = (int) thread.getId() & (STRIPES - 1);
        final int base = PAD + stripe * STRIDE + kind * FIELDS;
        cells[base]++;
        cells[base + 1] += nanos;
        if (nanos > cells[base + 2]) {
            cells[base + 2] = nanos;
        }
        final int bucket = 64 - Long.numberOfLeadingZeros(nanos >>> 10);
        cells[base + 3 + (bucket < BUCKETS - 1 ? bucket : BUCKETS - 1)]++;
    }

    /**
     * Whether a thread's acquisitions are not the host's to count: mech's threads and JFR's, told by
     * name as {@code io.mech.probes.MechThreads} tells them (the bridge cannot see that class), and
     * the JVM's own service threads (the system group's: the reference handler, the finalizer, the
     * JMX notification thread, which runs the listener behind mech's JVM metrics; and the JDK's
     * innocuous threads: the common cleaner), and the virtual-thread scheduler's carriers, whose
     * own acquisitions are the scheduler's (a virtual thread's are counted under the virtual
     * thread, the current thread then; on JDK 21 the carriers that mech's virtual-thread meter
     * brings up contended on the pool's registration lock). With no stack to show whose code
     * ran, their contention is bookkeeping, often mech's, that the host's code cannot change.
     *
     * <p>Asked only once an acquisition of a lock the bridge counts was contended, so uncontended
     * code never pays for it. For a host's thread: two failed comparisons of its name and two of
     * references, no lookup and no allocation. Measured with JMH on an idle 2-core machine, with
     * reading the current thread: 1.1 ns on JDK 17, 1.4 ns on JDK 25; the whole count, about 22 ns
     * on JDK 17 and 23 ns on JDK 25 with or without the check, within the noise.
     */
    static boolean notTheHosts(final Thread thread) {
        final String name = thread.getName();
        return name.startsWith("mech-") || name.startsWith("JFR ") || thread.getThreadGroup() == SYSTEM
            || thread.getClass() == INNOCUOUS || thread.getClass() == CARRIER;
    }

    /** @return the live counters, laid out as the constants above say */
    public static long[] cells() {
        return CELLS;
    }
}
