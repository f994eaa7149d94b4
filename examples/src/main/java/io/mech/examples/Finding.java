package io.mech.examples;

/**
 * What a mech probe can report about a running kernel. Each variant names the findings it must
 * produce ({@link VariantDescriptor#findings()}); every other finding must stay silent.
 */
public enum Finding {
    /** Fields written by different threads share a cache line although no datum is shared. */
    FALSE_SHARING,
    /**
     * One field is written by several threads outside any monitor or {@code java.util.concurrent}
     * lock (plain, volatile or atomic writes), so its cache line migrates on every write.
     */
    TRUE_SHARING,
    /** Threads block or park waiting for a monitor or a {@code java.util.concurrent} lock. */
    LOCK_CONTENTION,
    /** A monitor is inflated to a heavyweight OS-backed monitor. */
    LOCK_INFLATION,
    /** A queue holds many elements for a sustained period: its consumer is falling behind. */
    QUEUE_DEPTH,
    /** Producers are blocked by a full bounded queue. */
    BACK_PRESSURE,
    /** Every application thread is stopped by a garbage-collection pause long enough to notice. */
    GC_HICCUP,
    /**
     * One thread keeps the JVM from reaching a safepoint (time to safepoint): every other thread
     * has stopped and waits for it. The site is the class whose code runs on without a poll.
     */
    SAFEPOINT_DELAY,
    /**
     * Virtual threads wait for a carrier: every carrier is pinned or kept busy by virtual
     * threads that do not block, so a virtual thread that wakes cannot run. No site: the wait
     * is the scheduler's, not one class's.
     */
    CARRIER_WAIT
}
