package io.mech.probes.queues;

import java.lang.invoke.MethodHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.ThreadPoolExecutor;

/**
 * One registered queue: what it is, where it was made, and its recent samples in a ring twice as
 * long as {@link #WINDOW_NANOS} needs. It holds the queue (and its executor) only weakly.
 *
 * <p>Guarantees: written only by the sampler thread, under the probe's sampling lock, and read
 * under the same lock; {@link #sample} allocates nothing. The ring is allocated once, here.
 */
final class TrackedQueue {

    /** The span Little's-law estimates are smoothed over. */
    static final long WINDOW_NANOS = 10_000_000_000L;
    /** Dequeues per second below which there is no wait estimate: the rate is about zero. */
    static final double MIN_RATE = 1.0;

    final WeakReference<Object> queue;
    final String type;
    final String site;
    final Shape shape;
    final int slot;
    /**
     * What the sampler reads the queue through, found at its first sample (the queue's
     * constructors have all run by then): the JDK's AtomicInteger or PriorityQueue behind its
     * count (may be null), and what the queue's library promises. Null before.
     */
    Object holder;
    Contract contract;
    /** A counted queue's own size(), where it is a plain read; null where it is not, or not counted. */
    MethodHandle sizeCheck;
    /** Elements that moved by ways mech does not count, found by holding the counts to {@link #sizeCheck}. */
    long enqueuesUncounted;
    long dequeuesUncounted;
    /** The counts' depth less the size at the last sample. */
    long lastGap;
    /** The bound at the last sample; {@link QueueStats#UNKNOWN} until one is read. */
    long capacity = QueueStats.UNKNOWN;
    /** The executor whose work queue this is, if any; set once, by registration. */
    volatile WeakReference<ThreadPoolExecutor> executor;
    volatile String executorType;

    private final long sampleNanos;
    private final long[] times;
    private final long[] depths;
    private final long[] dequeues;
    private final long[] enqueues;
    private int newest = -1;
    private int filled;

    long samples;
    long depth;
    boolean atLeast;
    long maxDepth;
    long enqueued;
    long dequeued;
    int active = -1;
    double enqueueRate = Double.NaN;
    double dequeueRate = Double.NaN;
    double waitSeconds = Double.NaN;
    double meanDepth = Double.NaN;
    double growthPerSecond = Double.NaN;
    double windowSeconds;
    int fullRun;
    int deepRun;
    int riseRun;
    long riseFrom;
    String alerting;
    long alerts;

    TrackedQueue(final Object queue, final String type, final String site, final Shape shape, final int slot,
                 final long sampleNanos) {
        this.queue = new WeakReference<>(queue);
        this.type = type;
        this.site = site;
        this.shape = shape;
        this.slot = slot;
        this.sampleNanos = sampleNanos;
        // twice the window: a sampler held up and catching up can take samples closer than the period
        final int length = 2 * (int) ((WINDOW_NANOS + sampleNanos - 1) / sampleNanos) + 1;
        this.times = new long[length];
        this.depths = new long[length];
        this.dequeues = new long[length];
        this.enqueues = new long[length];
    }

    /**
     * Records one sample and updates the rates, growth and wait estimate over the ring.
     *
     * @param now          System.nanoTime() of the sample
     * @param capacityRead capacity read: the bound, {@link QueueStats#UNBOUNDED} or {@link QueueStats#UNKNOWN}
     * @param read         depth read; -1 when unknown; above a bound, taken as the bound
     * @param bounded      whether the read hit a walk's bound (the depth is at least that)
     * @param dequeueTotal dequeues counted since registration; -1 when not counted
     * @param enqueueTotal enqueues since registration; -1 to derive them from dequeues and depth
     */
    void sample(final long now, final long capacityRead, final long depthRead, final boolean bounded, final long dequeueTotal,
                final long enqueueTotal) {
        capacity = capacityRead;
        // a bounded queue never holds more than its bound: more is a misread, and utilisation stays at most 100%
        final long read = capacityRead >= 0 ? Math.min(depthRead, capacityRead) : depthRead;
        samples++;
        depth = read;
        atLeast = bounded;
        maxDepth = Math.max(maxDepth, read);
        dequeued = dequeueTotal;
        // Derived enqueues only ever grow: a task taken out by remove() (a cancelled scheduled
        // task) leaves without a counted dequeue, and dequeues plus depth fell, which read as
        // "in -3/s" on ScheduledThreadPoolExecutor's queue.
        final long derived = dequeueTotal >= 0 && read >= 0 ? dequeueTotal + read : -1;
        enqueued = enqueueTotal >= 0 ? enqueueTotal : derived >= 0 ? Math.max(enqueued, derived) : -1;
        newest = (newest + 1) % times.length;
        filled = Math.min(filled + 1, times.length);
        times[newest] = now;
        depths[newest] = read;
        dequeues[newest] = dequeued;
        enqueues[newest] = enqueued;
        // the window: back from the newest sample to the first that makes it span WINDOW_NANOS (all there are, before)
        int oldest = newest;
        int count = 1;
        while (count < filled && now - times[oldest] < WINDOW_NANOS - sampleNanos / 2) {
            oldest = (oldest - 1 + times.length) % times.length;
            count++;
        }
        final long span = now - times[oldest];
        windowSeconds = span / 1e9;
        if (span <= 0) {
            return;
        }
        dequeueRate = rate(dequeues[oldest], dequeued);
        enqueueRate = rate(enqueues[oldest], enqueued);
        growthPerSecond = read >= 0 && depths[oldest] >= 0 ? (read - depths[oldest]) / windowSeconds : Double.NaN;
        double sum = 0;
        for (int i = 0, at = oldest; i < count; i++, at = (at + 1) % times.length) {
            sum += depths[at];
        }
        meanDepth = sum / count;
        final boolean smoothed = span >= WINDOW_NANOS - sampleNanos / 2;
        waitSeconds = smoothed && read >= 0 && dequeueRate >= MIN_RATE ? meanDepth / dequeueRate : Double.NaN;
    }

    /** @return the count's rate over the window, never negative; NaN when either end is unknown */
    private double rate(final long from, final long to) {
        return from >= 0 && to >= 0 ? Math.max(0, to - from) / windowSeconds : Double.NaN;
    }

    /** @return depth over capacity, at most 1; NaN for an unbounded queue, an unknown bound or depth */
    double utilisation() {
        return capacity > 0 && depth >= 0 ? Math.min(1.0, (double) depth / capacity) : Double.NaN;
    }

    /**
     * Judges the last sample: a bounded queue at or above {@code alert} utilisation, or an
     * unbounded one at least {@code deep} deep, for {@code runs} samples in a row; or an unbounded
     * queue that rose at each of its last {@code 2 * runs - 1} samples by {@code deep / 100} or more in all.
     * A queue whose bound is unknown is judged as an unbounded one: by its depth alone, never as full.
     *
     * @return the reason of an alert that starts now ({@code full}, {@code deep} or {@code growing}),
     *         or null; an alert re-arms once no condition holds
     */
    String judge(final double alert, final long deep, final int runs) {
        final long previous = samples > 1 ? depths[(newest - 1 + depths.length) % depths.length] : -1;
        final double used = utilisation();
        fullRun = used >= alert ? fullRun + 1 : 0;
        deepRun = capacity < 0 && depth >= deep ? deepRun + 1 : 0;
        if (capacity < 0 && previous >= 0 && depth > previous) {
            if (riseRun == 0) {
                riseFrom = previous;
            }
            riseRun++;
        } else {
            riseRun = 0;
        }
        final String reason = fullRun >= runs ? "full" : deepRun >= runs ? "deep"
            : riseRun >= 2 * runs - 1 && depth - riseFrom >= Math.max(1, deep / 100) ? "growing" : null;
        if (reason == null) {
            alerting = null;
            return null;
        }
        if (alerting != null) {
            return null;
        }
        alerting = reason;
        alerts++;
        return reason;
    }
}
