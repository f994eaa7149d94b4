package io.mech.hiccup;

import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The measuring loop: ask to be woken after the resolution, see how much later than the
 * quickest wake-up seen so far it actually woke, and record that excess as a hiccup.
 *
 * <p>Subtracting the shortest observed round rather than the requested resolution removes the
 * constant cost of parking and waking on this platform, so an idle, healthy JVM records values
 * near zero. Each value is recorded with the resolution as the expected interval: a 300 ms stall
 * also stands for the 1 ms samples that could not be taken during it (coordinated omission).
 *
 * <p>Hiccups of at least the stall threshold are also counted and summed as stalls, without the
 * correction, so that the total says how long the JVM really stood still, and each is handed to
 * the {@link StallQueue} for whoever finds its cause (a meter without queues, the virtual-thread
 * meter's, only counts them).
 *
 * <p>With {@link VmCounters}, the meter reads HotSpot's counters at every wake-up and hands each
 * stall over with what they moved by across it: the evidence of its cause, from the first
 * interval on. HotSpot adds a safepoint's time after the meter may have woken, so the stall is
 * a {@link HeldStall} until a later wake-up.
 *
 * <p>Guarantees: only the thread running {@link #run()} writes to the recorder, which is what
 * {@link SingleWriterRecorder} requires, and to the stall totals, which are volatile so that any
 * thread may read them (a single writer needs no atomic increment, and stalls are too rare for
 * the store's fence to matter). The loop allocates nothing, not even on first use.
 */
final class HiccupMeter implements Runnable {

    /** A wake-up costs tens of microseconds on Linux; a round longer than this beyond the resolution is a hiccup. */
    static final long WAKE_COST_CAP_NANOS = 1_000_000L;

    /** A park ceiling below this would not keep a park under its threshold: a wake-up alone is late by about this much. */
    static final long SHORTEST_PARK_CEILING_NANOS = 50_000L;

    private final SingleWriterRecorder recorder;
    private final long resolutionNanos;
    private final long stallThresholdNanos;
    /**
     * The most the shortest round may stand for: the resolution plus {@link #WAKE_COST_CAP_NANOS}.
     * A meter that starts while its thread is kept waiting on every round (a virtual thread whose
     * carriers are all busy from before it started) would otherwise take the wait for the
     * platform's cost of waking, and measure none of it.
     */
    private final long longestFloorNanos;
    /** The virtual-thread meter's whole milliseconds a round, slept. */
    private final long wholeMillis;
    private final StallQueue stallQueue;
    private final StallQueue watchQueue;
    private final VmCounters counters;
    /**
     * The longest single park; no limit until a JFR stream records {@code jdk.ThreadPark} (see
     * {@link #keepParksUnder}). Written by the part that opens that stream, read by the meter
     * at each wait.
     */
    private volatile long parkCeilingNanos = Long.MAX_VALUE;
    /** The kernel's figures of this thread; null until it began, or where the kernel keeps none. Written by the meter thread once. */
    private volatile KernelFigures kernel;
    /** Where a reading's kernel evidence begins: after HotSpot's counters. */
    private final int kernelAt;
    /** The counters at the last wake-up and at this one, swapped each round. */
    private long[] last;
    private long[] current;
    private final HeldStall held;
    private volatile boolean stopped;
    /** Written once by the meter thread as it begins, read by the report's; null until then, or without counters. */
    private volatile UnmeteredStops unmetered;
    private volatile long stalls;
    private volatile long stallNanos;

    /**
     * @param stallQueue the stalls for their attribution, with {@link #evidenceWidth} evidence
     *                   values each; null for a meter that only counts them
     * @param watchQueue the stalls for a watcher, without evidence; null with {@code stallQueue}
     * @param counters   HotSpot's counters, or null where the JVM keeps none; with them the meter also reads
     *                   the kernel's figures, and the process's CPU cgroup's, as it begins
     */
    HiccupMeter(final SingleWriterRecorder recorder, final long resolutionNanos, final long stallThresholdNanos,
                final StallQueue stallQueue, final StallQueue watchQueue, final VmCounters counters) {
        this.recorder = recorder;
        this.resolutionNanos = resolutionNanos;
        this.longestFloorNanos = resolutionNanos + WAKE_COST_CAP_NANOS;
        this.wholeMillis = resolutionNanos / 1_000_000;
        this.stallThresholdNanos = stallThresholdNanos;
        this.stallQueue = stallQueue;
        this.watchQueue = watchQueue;
        this.counters = stallQueue == null ? null : counters;
        this.kernelAt = this.counters == null ? 0 : this.counters.width();
        final int width = evidenceWidth(this.counters);
        this.last = new long[width];
        this.current = new long[width];
        this.held = new HeldStall(width);
    }

    /** How many evidence values a stall carries with these counters: theirs and the kernel's; none without counters. */
    static int evidenceWidth(final VmCounters counters) {
        return counters == null ? 0 : counters.width() + KernelFigures.EVIDENCE_WIDTH;
    }

    @Override
    public void run() {
        long shortestNanos = Long.MAX_VALUE;
        KernelFigures figures = null;
        if (counters != null) {
            // a meter started before the host's main may begin in a heap the host already filled:
            // it measures on, without what it could not make. The files first, the baseline last,
            // so that no stop falls between the baseline and the first round.
            try {
                figures = KernelFigures.openForThisThread(CpuCgroup.ofThisProcess());
                kernel = figures;
            } catch (final OutOfMemoryError full) {
                figures = null;
            }
            counters.read(last, 0);
            try {
                unmetered = UnmeteredStops.of(counters, last, System.currentTimeMillis());
            } catch (final OutOfMemoryError full) {
                unmetered = null;
            }
        }
        // Each round starts where the last one ended, so no time falls between two rounds: a
        // safepoint or a SIGSTOP that caught the meter between its wake-up and its next wait was
        // in no round before, and went unseen (a 310 ms stop once, a full collection once).
        long before = System.nanoTime();
        while (!stopped) {
            sleepUntil(before + resolutionNanos);
            final long after = wokeAt();
            final long elapsed = after - before;
            if (elapsed < shortestNanos) {
                shortestNanos = elapsed;
            }
            final long hiccup = Math.min(elapsed - Math.min(shortestNanos, longestFloorNanos), HiccupSettings.HIGHEST_TRACKABLE_NANOS);
            recorder.recordValueWithExpectedInterval(hiccup, resolutionNanos);
            final boolean stall = hiccup >= stallThresholdNanos;
            if (counters != null) {
                held.woke(current, after, stall, stallQueue);
            }
            if (stall) {
                stallNanos += hiccup;
                stalls++;
                if (stallQueue != null) {
                    watchQueue.offer(after, hiccup);
                    if (counters == null) {
                        stallQueue.offer(after, hiccup);
                    } else {
                        kernelEvidence(figures, hiccup);
                        held.hold(after, hiccup, last, current);
                    }
                }
            } else if (figures != null) {
                figures.round();
            }
            final long[] swap = last;
            last = current;
            current = swap;
            before = after;
        }
        if (counters != null) {
            held.handOver(stallQueue);
        }
        if (figures != null) {
            figures.close();
        }
    }

    /** The kernel's evidence of a stall into this reading, the last one's slots zero: a stall's evidence is their difference. */
    private void kernelEvidence(final KernelFigures figures, final long lengthNanos) {
        for (int i = 0; i < KernelFigures.EVIDENCE_WIDTH; i++) {
            last[kernelAt + i] = 0;
            current[kernelAt + i] = 0;
        }
        if (figures != null) {
            figures.stall(lengthNanos, current, kernelAt);
        }
    }

    /** The meter's run-queue wait since it began; -1 until it began, or where the kernel gives none. Any thread. */
    long runQueueNanos() {
        final KernelFigures figures = kernel;
        return figures == null ? -1 : figures.waitedNanos();
    }

    /** What stopped the JVM before this meter began; null until it began, or where it reads no counters. */
    UnmeteredStops unmetered() {
        return unmetered;
    }

    /**
     * The time of a wake-up, and the counters into {@link #current} on the same side of every
     * safepoint. Between a clock reading and the counters' the meter passes safepoint polls, where
     * a safepoint that begins stops it: the time would be taken before the safepoint and the
     * counters after it, and the next round's stall would have the safepoint's length with no
     * safepoint in its evidence (the second of three back-to-back full collections, put down
     * to the OS at a host's exit). A safepoint count that moved between the first reading and
     * the clock's takes both again; safepoints are rare, so this loops once or twice at most.
     */
    private long wokeAt() {
        if (counters == null) {
            return System.nanoTime();
        }
        long now;
        do {
            counters.read(current, 0);
            now = System.nanoTime();
        } while (counters.safepoints() != current[VmCounters.SAFEPOINTS]);
        return now;
    }

    /** The number of stalls so far. */
    long stalls() {
        return stalls;
    }

    /** The total length of the stalls so far, in nanoseconds. */
    long stallNanos() {
        return stallNanos;
    }

    /**
     * Keeps each park of the meter that hands stalls over under half the threshold from now on:
     * a JFR stream that records {@code jdk.ThreadPark} from that threshold (the lock probe's, 1 ms
     * by default) would otherwise get an event with a stack trace from every round, 1,000 a
     * second. Until then a round is one park: halving the parks halves the meter's CPU, which
     * was twice jHiccup's in an idle host's first 10 s. A threshold too short to stay under
     * changes nothing.
     *
     * @param thresholdNanos the shortest park the stream records
     */
    void keepParksUnder(final long thresholdNanos) {
        if (thresholdNanos / 2 >= SHORTEST_PARK_CEILING_NANOS) {
            parkCeilingNanos = Math.min(parkCeilingNanos, thresholdNanos / 2);
        }
    }

    /**
     * Waits until the deadline. The meter that hands stalls over parks, never
     * {@link Thread#sleep}: from JDK 21 on a sleep allocates an event object whenever any
     * recording has {@code jdk.ThreadSleep} on (default.jfc does), and a meter that allocates can
     * itself be stalled for memory under ZGC, which no counter sees. A park allocates nothing.
     *
     * <p>The virtual-thread meter, whose stalls nobody attributes, sleeps the whole milliseconds
     * once a round as before: each timed wait of a virtual thread is a task on the JDK's unparker,
     * whose queue lock two waits a round made contended often enough for the lock probe to report it.
     * Both loops absorb a spurious early return, which would shrink the shortest round.
     */
    private void sleepUntil(final long deadline) {
        if (stallQueue == null && wholeMillis > 0) {
            try {
                Thread.sleep(wholeMillis);
            } catch (final InterruptedException e) {
                stopOnInterrupt();
            }
        }
        final long step = stallQueue == null ? Long.MAX_VALUE : parkCeilingNanos;
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0 && !stopped) {
            LockSupport.parkNanos(Math.min(remaining, step));
            if (Thread.interrupted()) {
                stopOnInterrupt();
            }
        }
    }

    /** Nothing but mech interrupts its meter: stop, or every later wait would return at once. */
    private void stopOnInterrupt() {
        stopped = true;
        Thread.currentThread().interrupt();
    }

    void stop() {
        stopped = true;
    }
}
