package io.mech.hiccup.cause;

import io.mech.hiccup.ControlStalls;
import io.mech.hiccup.EpochClock;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.hiccup.KernelFigures;
import io.mech.hiccup.StallQueue;
import io.mech.hiccup.TaggedIntervals;
import io.mech.hiccup.VmCounters;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordingStream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * Finds the cause of every stall the hiccup meter hands over, on its own daemon thread
 * {@code mech-hiccup-causes}, never on the meter's path.
 *
 * <p>Two tiers of evidence. The first, HotSpot's own counters ({@link VmCounters}), comes with
 * each stall from the meter: how much of it the JVM spent in collections, at other safepoints and
 * waiting for threads to reach them, from the host's first interval to its last; with mech's own
 * timed VM operations ({@link OwnOperations}) it names gc, safepoint, ttsp and mech. The second,
 * JFR's events, once the stream records ({@link #listenTo}), names the collection and its cause
 * or the VM operation, adds the meter's own allocation stalls under ZGC, and attributes alone
 * where the JVM keeps no counters ({@code -XX:-UsePerfData}). A stall JFR may still speak of
 * waits until the stream has delivered an event that ended after it (a CPU-load heartbeat comes
 * every second), or {@link #HORIZON_NANOS} after it ended.
 *
 * <p>What no tier explains is {@code os} only on evidence that the JVM did nothing: the control
 * JVM stalled too, steal time or throttling rose across it, or a tier that sees every way the JVM
 * stops the meter covered it and said nothing. The counters see every safepoint, and the meter
 * allocates nothing, so no collector can stall it for memory outside one (ZGC's allocation
 * stalls); JFR covers a stall once it has delivered past it. Otherwise it is {@code unknown}:
 * neither tier ran, or JFR alone ran and had not delivered by exit.
 *
 * <p>Outputs: running {@link CauseTotals}, in which a cause's time, count and longest describe
 * the same stalls, those it covers most of; a histogram per cause and log interval, handed to the
 * log as tagged intervals once final, and beside them, once JFR records, one of every thread's
 * allocation stalls ({@link #ALLOCATION_STALL_TAG}); and each {@link Attribution} to the listeners.
 *
 * <p>Thread-safe: the attributing thread, the log thread and mech's stop meet under this object's
 * lock, which is also what makes them one consumer of the recorder's {@link StallQueue}: every
 * poll of it happens under that lock. {@link #listenTo} publishes the JFR tier through a volatile field.
 */
public final class HiccupCauses implements TaggedIntervals, AutoCloseable {

    /**
     * A stall is attributed once JFR has delivered the events that ended after it, or, should
     * the stream fall silent, this long after it ended.
     */
    static final long HORIZON_NANOS = 10_000_000_000L;

    /**
     * Unexplained time below which a stall is not called frozen. A sleeping meter wakes late by the
     * kernel's timer slack (50 us by default) and its wake-up, and on a virtual machine by its vCPU
     * waiting on the host when no steal time is kept: at a 100 us resolution an idle attached host
     * had 4,437 such stalls in 5 s, 110 us each on average, all called frozen; with a 1 ms floor,
     * 1 or 2 of 1.3-1.6 ms still were, in each of 3 hosts. A stopped or frozen process stays so for
     * as long as a person or a freezer chose: far longer.
     */
    static final long FROZEN_NANOS = 10_000_000L;

    /**
     * Widening of each JFR pause, and of mech's own operations: safepoint synchronisation before
     * it, clock differences and the meter's round around it.
     */
    static final long SLACK_NANOS = 1_000_000L;

    /** The detail of the part of a stall HotSpot's counters put at a safepoint whose operation JFR did not name. */
    static final String SAFEPOINT_DETAIL = "VM operation (named once JFR records)";
    /** The detail of an {@code os} stall the control JVM shared. */
    static final String CONTROL_STALLED = "control JVM stalled too";
    static final String UNKNOWN_NO_TIER = "no evidence: JVM counters unreadable, JFR not recording";
    static final String UNKNOWN_UNDELIVERED = "no evidence: JFR had not delivered its events for it";
    static final String UNKNOWN_DROPPED = "no evidence: dropped, the attributing thread behind";

    /**
     * The log tag of every thread's allocation stalls (ZGC's waits for memory, JFR's
     * {@code jdk.ZAllocationStall} of 1 ms or more): one histogram per interval that JFR recorded
     * in, holding each stall's length in nanoseconds in the interval its end falls in. They are
     * threads' waits, not the meter's stalls: two threads stalled together are two values, and
     * they are no part of the causes, which split the meter's stalls.
     */
    public static final String ALLOCATION_STALL_TAG = "allocation-stall";

    /** How far behind now an interval may close: the meter hands a stall over a round after it ends. */
    private static final long SETTLING_NANOS = 50_000_000L;

    private static final long POLL_MILLIS = 200;
    private static final int CAUSES = Cause.values().length;
    private static final int MAX_DETAILS = 8;

    private final HiccupRecorder recorder;
    private final StallQueue queue;
    private final VmCounters counters;
    private final OwnOperations own;
    private final ControlStalls control;
    private final long resolutionNanos;
    private final long safepointThresholdNanos;
    private final long meterThreadId;
    private final EpochClock clock = new EpochClock();
    private final OsCpu os;
    private final List<AttributionListener> listeners = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile JfrPauses pauses;

    private final Deque<Stall> pending = new ArrayDeque<>();
    private final StallQueue.StallHandler toPending = new ToPending();
    private final List<Attribution> unassigned = new ArrayList<>();
    /** Guarded by {@code this}: written intervals' histograms, reset, for the next intervals' stalls. */
    private final Deque<Histogram> spare = new ArrayDeque<>();
    /** Guarded by {@code this}: the line of a cause without stalls in an interval, always empty, stamped for each. */
    private final Histogram none = new Histogram(HiccupRecorder.SIGNIFICANT_DIGITS);
    private final Deque<Interval> intervals = new ArrayDeque<>();
    /**
     * Per cause, by ordinal: the stalls' time, count and longest. Arrays, not maps of boxed
     * values, so that counting a stall allocates nothing and cannot be cut short by a full heap
     * halfway: a stall is counted whole, then taken off {@link #pending}.
     */
    private final long[] nanos = new long[CAUSES];
    private final long[] counts = new long[CAUSES];
    private final long[] longest = new long[CAUSES];
    private final Map<Cause, Map<String, Long>> details = new EnumMap<>(Cause.class);
    private long lastStallNanos;
    private volatile boolean closed;

    /**
     * A stall waiting for its attribution, with the counters' evidence in nanoseconds.
     *
     * @param end        epoch nanoseconds
     * @param endNanoTime System.nanoTime() at its end, for mech's own operations
     * @param safepoints how many safepoints began across it (a count, not nanoseconds)
     * @param kernel     the kernel's evidence ({@link KernelFigures#RUN_QUEUE_EVIDENCE} and on), or null where none was read
     */
    private record Stall(long end, long length, long endNanoTime, long safepoints, long gc, long atSafepoint, long sync,
                         String collector, long[] kernel) {
    }

    /** One closed log interval and its stalls by cause. */
    private static final class Interval {
        final long startMillis;
        final long endMillis;
        final Map<Cause, Histogram> byCause = new EnumMap<>(Cause.class);
        /** Every thread's allocation stalls that ended in it; null while none. */
        Histogram allocationStalls;

        Interval(final long startMillis, final long endMillis) {
            this.startMillis = startMillis;
            this.endMillis = endMillis;
        }
    }

    private HiccupCauses(final HiccupRecorder recorder, final OwnOperations own, final ControlStalls control) {
        this.recorder = recorder;
        this.queue = recorder.stallQueue();
        this.counters = recorder.counters();
        this.os = new OsCpu(recorder.cgroup());
        this.own = own;
        this.control = control;
        this.resolutionNanos = recorder.settings().resolutionNanos();
        this.safepointThresholdNanos = recorder.settings().stallNanos();
        this.meterThreadId = recorder.meterThreadId();
        this.thread = new Thread(new Runnable() {
            @Override
            public void run() {
                attributeUntilClosed();
            }
        }, "mech-hiccup-causes");
        thread.setDaemon(true);
    }

    /**
     * The attribution of a recorder's stalls, not started: nothing runs and the recorder's log is
     * not tagged until {@link #start}, so that a caller whose set-up fails before then (a full
     * heap) leaves nothing behind and may make another.
     *
     * @param recorder the running hiccup recorder; its stalls carry HotSpot's counters when it reads them
     * @param own      mech's own VM operations, timed where mech asks for them
     * @param control  the control JVM's stalls, or null without a control JVM
     * @return the attribution, to start once its listeners are added
     */
    public static HiccupCauses of(final HiccupRecorder recorder, final OwnOperations own, final ControlStalls control) {
        return new HiccupCauses(recorder, own, control);
    }

    /**
     * Starts attributing the recorder's stalls and tags its log with one histogram per cause;
     * once at most, and the recorder's stall queue must have no other consumer. The thread starts
     * before the log is tagged: should it fail to, the log stays untagged.
     *
     * @return this attribution, running
     */
    public HiccupCauses start() {
        prepare();
        thread.start();
        recorder.tagWith(this);
        return this;
    }

    /**
     * Loads and links the attribution's code on the caller's thread, where there is room in the
     * heap: its first use on the attributing thread may meet a heap the host has filled again (a
     * host that fills it from its first line), which fails it round after round, and every class
     * loaded then makes the JDK's instrument library fail an assertion on the host's stderr while a
     * probe's transformer is registered. A stall of no length, attributed and not counted.
     */
    private void prepare() {
        synchronized (this) {
            os.sample(clock.nowEpochNanos());
            attribute(new Stall(clock.nowEpochNanos(), 0, System.nanoTime(), 0, 0, 0, 0, null, null), pauses);
        }
    }

    /**
     * Adds JFR's events as the second tier: call once, before the stream starts.
     *
     * @param stream mech's JFR stream, ordered and not started yet: the caller starts it once
     *               every part has subscribed
     */
    public void listenTo(final RecordingStream stream) {
        listenTo(JfrPauses.subscribe(stream, safepointThresholdNanos, meterThreadId));
    }

    /** Adds the JFR tier's pauses, however they are fed. */
    void listenTo(final JfrPauses jfr) {
        pauses = jfr;
    }

    /** Adds a listener told of every attributed stall. */
    public void addListener(final AttributionListener listener) {
        listeners.add(listener);
    }

    private void attributeUntilClosed() {
        long polls = 0;
        try {
            while (!closed) {
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (final InterruptedException e) {
                    return;
                }
                try {
                    attributeRound(polls++);
                } catch (final OutOfMemoryError full) {
                    // The host's heap is full for now: the stalls wait in the queue for the next round.
                    // Nothing here: code run for the first time under a full heap may need memory to link.
                }
            }
        } finally {
            synchronized (this) {
                os.close();
            }
        }
    }

    private void attributeRound(final long polls) {
        synchronized (this) {
            // the clock and the OS figures are read by the log thread and the stop too, under this lock
            if (polls % 5 == 0) {
                clock.calibrate();
            }
            os.sample(clock.nowEpochNanos());
            drainQueue();
            attributeReady(false);
        }
        final JfrPauses jfr = pauses;
        if (jfr != null) {
            jfr.prune(clock.nowEpochNanos());
        }
    }

    private void drainQueue() {
        queue.poll(toPending);
    }

    /** Takes the queue's stalls into {@link #pending}; made once, with the attribution, where the heap has room. */
    private final class ToPending implements StallQueue.StallHandler {
        @Override
        public void onStall(final long endNanos, final long lengthNanos, final long[] evidence, final int at) {
            final long end = clock.epochNanos(endNanos);
            if (counters == null) {
                pending.addLast(new Stall(end, lengthNanos, endNanos, 0, 0, 0, 0, null, null));
            } else {
                long gc = 0;
                int widest = -1;
                for (int c = VmCounters.FIRST_COLLECTOR; c < counters.width(); c++) {
                    gc += evidence[at + c];
                    if (evidence[at + c] > 0 && (widest < 0 || evidence[at + c] > evidence[at + widest])) {
                        widest = c;
                    }
                }
                pending.addLast(new Stall(end, lengthNanos, endNanos, evidence[at + VmCounters.SAFEPOINTS], counters.nanos(gc),
                    counters.nanos(evidence[at + VmCounters.SAFEPOINT_TICKS]), counters.nanos(evidence[at + VmCounters.SYNC_TICKS]),
                    widest < 0 ? null : counters.collectors().get(widest - VmCounters.FIRST_COLLECTOR), kernel(evidence, at)));
            }
            lastStallNanos = end;
        }
    }

    /** A stall's kernel evidence, after HotSpot's counters'; null where the meter read none. */
    private long[] kernel(final long[] evidence, final int at) {
        final int from = at + counters.width();
        if (queue.width() < counters.width() + KernelFigures.EVIDENCE_WIDTH || evidence[from + KernelFigures.READ_EVIDENCE] == 0) {
            return null;
        }
        return Arrays.copyOfRange(evidence, from, from + KernelFigures.EVIDENCE_WIDTH);
    }

    /**
     * Attributes the waiting stalls, oldest first, that JFR can no longer add to: it delivered
     * past them, it was not recording when they began, or they are past the horizon; at exit
     * ({@code all}) every one, with whatever evidence has come.
     */
    private void attributeReady(final boolean all) {
        final JfrPauses jfr = pauses;
        final long now = clock.nowEpochNanos();
        while (!pending.isEmpty()) {
            final Stall stall = pending.peekFirst();
            final boolean ready = all || jfr == null || stall.end() - stall.length() < jfr.recordingSince()
                || stall.end() + SLACK_NANOS <= jfr.deliveredUpTo() || stall.end() <= now - HORIZON_NANOS;
            if (!ready) {
                return;
            }
            // Attributed and counted before it leaves the queue of pending stalls: a full heap that
            // cuts the attribution short leaves it there for the next round, and the counting allocates nothing.
            final Attribution attribution = attribute(stall, jfr);
            count(attribution);
            pending.removeFirst();
            countDetail(attribution);
            assign(attribution);
            for (final AttributionListener listener : listeners) {
                listener.attributed(attribution);
            }
        }
    }

    private Attribution attribute(final Stall stall, final JfrPauses jfr) {
        final long end = stall.end();
        final long length = stall.length();
        final long start = end - length;
        final boolean jfrCovers = jfr != null && start >= jfr.recordingSince() && end + SLACK_NANOS <= jfr.deliveredUpTo();
        final List<PauseWindow> windows = jfrCovers ? jfr.overlapping(start, end, SLACK_NANOS) : List.of();
        final String[] ownOperation = new String[1];
        // With the counters, a stop shorter than a round may land in the stall after it, by when
        // mech's call has returned: their move is evidence enough that it was this stop.
        final long ownSlack = counters != null ? SLACK_NANOS : 0;
        final long ownNanos = own == null ? 0
            : own.overlap(stall.endNanoTime() - length - ownSlack, stall.endNanoTime() + ownSlack, ownOperation);
        final Map<Cause, Long> portions = new EnumMap<>(Cause.class);
        for (final Cause cause : Cause.values()) {
            portions.put(cause, 0L);
        }
        long rest = length;
        if (counters != null) {
            // A pause is a safepoint, whose wait for threads HotSpot adds once they all stopped, the
            // meter with them: a collector's counter can also run over a whole concurrent cycle
            // (Shenandoah's does), which stops no thread. The count itself may already have moved
            // before the stall's first reading: the meter runs on until it reaches a poll.
            final long gcPause = stall.sync() > 0 || stall.safepoints() > 0 ? stall.gc() : 0;
            rest = splitCounted(portions, rest, gcPause, stall.atSafepoint(), stall.sync(),
                Math.max(ownNanos, covered(windows, EnumSet.of(Cause.MECH), start, end)),
                covered(windows, EnumSet.of(Cause.SAFEPOINT), start, end) > 0);
            if (jfrCovers) {
                rest = take(portions, Cause.GC, jfr.meterAllocationStalled(start, end, SLACK_NANOS), rest);
            }
        } else if (jfrCovers) {
            final Map<Cause, Long> jfrSplit = split(start, end, windows);
            final long mech = Math.min(jfrSplit.get(Cause.SAFEPOINT), ownNanos);
            jfrSplit.put(Cause.SAFEPOINT, jfrSplit.get(Cause.SAFEPOINT) - mech);
            jfrSplit.put(Cause.MECH, jfrSplit.get(Cause.MECH) + mech);
            for (final Cause cause : List.of(Cause.GC, Cause.MECH, Cause.SAFEPOINT, Cause.TTSP)) {
                rest = take(portions, cause, jfrSplit.get(cause), rest);
            }
            rest = take(portions, Cause.GC, jfr.meterAllocationStalled(start, end, SLACK_NANOS), rest);
        } else {
            rest = take(portions, Cause.MECH, ownNanos, rest);
        }
        final boolean controlStalled = control != null && control.stalledDuring(start, end);
        final long[] kernel = stall.kernel();
        // the cgroup's own samples name a throttled stall where the meter's window missed it, or read nothing
        rest = take(portions, Cause.THROTTLED, Math.max(kernel == null ? 0 : kernel[KernelFigures.THROTTLED_EVIDENCE],
            os.throttledAcross(start, end)), rest);
        if (kernel != null) {
            rest = take(portions, Cause.RUNQUEUE, kernel[KernelFigures.RUN_QUEUE_EVIDENCE] - portions.get(Cause.THROTTLED), rest);
        }
        rest = take(portions, Cause.STEAL, os.stealAcross(start, end), rest);
        if (kernel != null && kernel[KernelFigures.FAULTS_EVIDENCE] > 0) {
            // a fault's wait is not counted: the meter took one, and nothing else of the kernel's explains the rest
            rest = take(portions, Cause.PAGING, rest, rest);
        }
        final boolean silentTiersCover = jfrCovers || counters != null;
        if (kernel != null && silentTiersCover && rest * 2 >= length && rest >= FROZEN_NANOS) {
            rest = take(portions, Cause.FROZEN, rest, rest);
        }
        final Cause restCause = controlStalled || silentTiersCover ? Cause.OS : Cause.UNKNOWN;
        portions.put(restCause, portions.get(restCause) + rest);
        final Cause main = mainCause(portions);
        final String detail = switch (main) {
            case OS -> controlStalled ? CONTROL_STALLED : "nothing in the JVM";
            case UNKNOWN -> jfr != null && start >= jfr.recordingSince() ? UNKNOWN_UNDELIVERED : UNKNOWN_NO_TIER;
            case MECH -> ownOperation[0] != null ? ownOperation[0] : widest(Cause.MECH, windows, start, end, "mech");
            case GC -> stall.gc() == 0 && counters != null ? JfrPauses.ALLOCATION_STALL
                : widest(Cause.GC, windows, start, end, stall.collector() != null ? stall.collector() : "GC");
            case SAFEPOINT -> widest(Cause.SAFEPOINT, windows, start, end, SAFEPOINT_DETAIL);
            case TTSP -> widest(Cause.TTSP, windows, start, end, JfrPauses.TTSP_DETAIL);
            case THROTTLED -> "cgroup CPU quota spent";
            case RUNQUEUE -> controlStalled ? "waited for a core, the control JVM too" : "waited for a core";
            case STEAL -> "steal time";
            case PAGING -> "major faults of the meter's thread";
            case FROZEN -> controlStalled ? "nothing ran, the control JVM neither: the machine paused"
                : "nothing ran: the process was stopped (SIGSTOP, a cgroup freezer)";
        };
        return new Attribution(end, length, main, detail, portions);
    }

    /**
     * Puts a stall down to gc, mech, safepoint and ttsp on HotSpot's counters' evidence.
     *
     * @param portions       the stall's portions by cause, added to
     * @param rest           what is left of the stall
     * @param gcPause        the collectors' pause time within the stall
     * @param atSafepoint    the time the JVM spent at safepoints within it, collections included
     * @param sync           the time the JVM waited for threads to reach them
     * @param mechCovered    how much of the stall mech's own timed operations (or JFR's windows of
     *                       them) cover
     * @param namedSafepoint whether JFR named a safepoint's operation within the stall
     * @return what is left of the stall
     */
    static long splitCounted(final Map<Cause, Long> portions, final long rest, final long gcPause, final long atSafepoint,
                             final long sync, final long mechCovered, final boolean namedSafepoint) {
        final long otherSafepoint = Math.max(0, atSafepoint - gcPause);
        // The wait to reach a safepoint stays ttsp even within mech's call: a call that waits long
        // for its own safepoint spans the host's other safepoints too, and the counters cannot
        // tell whose wait it was (the report's self section has mech's own, from the call's ends).
        final long mech = Math.min(otherSafepoint, mechCovered);
        // The collector's counter times the collection alone; the rest of its safepoint (the
        // operation's set-up and clean-up) is the same stop, unless mech's or JFR's own
        // operation explains it.
        final long gcSafepoint = gcPause > 0 && !namedSafepoint ? otherSafepoint - mech : 0;
        long left = take(portions, Cause.GC, gcPause + gcSafepoint, rest);
        left = take(portions, Cause.MECH, mech, left);
        left = take(portions, Cause.SAFEPOINT, otherSafepoint - mech - gcSafepoint, left);
        return take(portions, Cause.TTSP, sync, left);
    }

    /** Puts up to {@code amount}, and no more than what is left of the stall, down to a cause. */
    private static long take(final Map<Cause, Long> portions, final Cause cause, final long amount, final long rest) {
        final long taken = Math.max(0, Math.min(amount, rest));
        portions.merge(cause, taken, Long::sum);
        return rest - taken;
    }

    /**
     * How much of [start, end] each cause's JFR windows cover: GC pauses first, mech's own
     * safepoints next, then other safepoints, then the time to reach them, the OS the rest. The
     * operations come before the time to safepoint because their windows are widened by the
     * slack, which stands for a short synchronisation when JFR reports none.
     */
    static Map<Cause, Long> split(final long start, final long end, final List<PauseWindow> windows) {
        final long gc = covered(windows, EnumSet.of(Cause.GC), start, end);
        final long mech = Math.max(0, covered(windows, EnumSet.of(Cause.GC, Cause.MECH), start, end) - gc);
        final long vm = Math.max(0, covered(windows, EnumSet.of(Cause.GC, Cause.MECH, Cause.SAFEPOINT), start, end) - gc - mech);
        final long ttsp = Math.max(0, covered(windows, EnumSet.allOf(Cause.class), start, end) - gc - mech - vm);
        final Map<Cause, Long> portions = new EnumMap<>(Cause.class);
        portions.put(Cause.GC, gc);
        portions.put(Cause.SAFEPOINT, vm);
        portions.put(Cause.TTSP, ttsp);
        portions.put(Cause.MECH, mech);
        portions.put(Cause.OS, end - start - gc - mech - vm - ttsp);
        portions.put(Cause.UNKNOWN, 0L);
        return portions;
    }

    /** The cause covering most; on a tie, the first in {@link Cause}'s order. */
    static Cause mainCause(final Map<Cause, Long> portions) {
        Cause main = null;
        for (final Cause cause : Cause.values()) {
            if (main == null || portions.getOrDefault(cause, 0L) > portions.getOrDefault(main, 0L)) {
                main = cause;
            }
        }
        return main;
    }

    /** How much of [start, end] the windows of the given causes cover together, each widened by the slack. */
    static long covered(final List<PauseWindow> windows, final Set<Cause> causes, final long start, final long end) {
        final List<long[]> spans = new ArrayList<>();
        for (final PauseWindow w : windows) {
            if (causes.contains(w.cause())) {
                spans.add(new long[] {Math.max(start, w.startNanos() - SLACK_NANOS), Math.min(end, w.endNanos() + SLACK_NANOS)});
            }
        }
        return Spans.union(spans, start);
    }

    /** The detail of the JFR window of a cause that overlaps [start, end] most, or the fallback. */
    private static String widest(final Cause cause, final List<PauseWindow> windows, final long start, final long end,
                                 final String fallback) {
        PauseWindow widest = null;
        for (final PauseWindow w : windows) {
            if (w.cause() == cause && (widest == null
                || w.overlap(start, end, SLACK_NANOS) > widest.overlap(start, end, SLACK_NANOS))) {
                widest = w;
            }
        }
        return widest == null ? fallback : widest.detail();
    }

    private void count(final Attribution a) {
        final int cause = a.cause().ordinal();
        nanos[cause] += a.lengthNanos();
        counts[cause]++;
        longest[cause] = Math.max(longest[cause], a.lengthNanos());
    }

    /** What explains a counted stall; under a full heap it may be lost, the stall's count not. */
    private void countDetail(final Attribution a) {
        final Map<String, Long> byDetail = details.computeIfAbsent(a.cause(), c -> new LinkedHashMap<>());
        if (byDetail.containsKey(a.detail()) || byDetail.size() < MAX_DETAILS) {
            byDetail.merge(a.detail(), 1L, Long::sum);
        } else {
            byDetail.merge("other", 1L, Long::sum);
        }
    }

    /** Puts an attributed stall into the histogram of the interval it ended in, or keeps it until that closes. */
    private void assign(final Attribution a) {
        final long endMillis = a.endNanos() / 1_000_000;
        for (final Interval interval : intervals) {
            if (endMillis >= interval.startMillis && endMillis < interval.endMillis) {
                record(interval, a);
                return;
            }
        }
        unassigned.add(a);
    }

    private void record(final Interval interval, final Attribution a) {
        interval.byCause.computeIfAbsent(a.cause(), c -> emptyHistogram()).recordValueWithExpectedInterval(a.lengthNanos(), resolutionNanos);
    }

    /**
     * A full-range histogram for an interval's stalls: one written before, reset, or a new one.
     * Packed: an interval's stalls of one cause fill a few buckets, and a full array of counts
     * would be 296 KiB of new heap for each cause that stalls in a host's first seconds.
     */
    private Histogram emptyHistogram() {
        final Histogram reused = spare.pollFirst();
        return reused != null ? reused : new PackedHistogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS);
    }

    /** Writes an interval's histogram and keeps it for a later interval. */
    private void writeAndKeep(final Histogram h, final String tag, final Interval interval, final Consumer<Histogram> writer) {
        writer.accept(stamped(h, tag, interval));
        h.reset();
        spare.addFirst(h);
    }

    /**
     * Puts each allocation stall JFR delivered that ended before the newest closed interval's end
     * (every one, at exit) into the interval its end falls in. One that ended before the oldest
     * interval not yet written (delivered past the horizon, or before the log's first interval)
     * goes into that oldest one, and one after the newest at exit into the newest, as late
     * stalls do; so the log holds every stall delivered by its last interval. The values are JFR's
     * lengths as they are: not corrected for coordinated omission, since no meter sampled them.
     */
    private void assignAllocationStalls(final JfrPauses jfr, final boolean all) {
        if (intervals.isEmpty()) {
            return;
        }
        final long[] stalls = jfr.takeAllocationStalls(all ? Long.MAX_VALUE : intervals.peekLast().endMillis * 1_000_000);
        for (int i = 0; i < stalls.length; i += 2) {
            final long endMillis = stalls[i] / 1_000_000;
            Interval into = intervals.peekFirst();
            for (final Interval interval : intervals) {
                if (endMillis >= interval.startMillis) {
                    into = interval;
                }
            }
            if (into.allocationStalls == null) {
                into.allocationStalls = emptyHistogram();
            }
            into.allocationStalls.recordValue(Math.min(stalls[i + 1], HiccupSettings.HIGHEST_TRACKABLE_NANOS));
        }
    }

    /**
     * Epoch nanoseconds before which JFR has delivered every allocation stall it will: the time
     * it has delivered up to, or, where that is earlier, the time it started recording (nothing
     * stalled before it as far as JFR can say) or the horizon past which a silent stream is not
     * waited for.
     */
    private long allocationStallsFinalBefore(final JfrPauses jfr) {
        return Math.max(jfr.deliveredUpTo(), Math.max(jfr.recordingSince(), clock.nowEpochNanos() - HORIZON_NANOS));
    }

    @Override
    public synchronized void intervalClosed(final long startMillis, final long endMillis) {
        final Interval interval = new Interval(startMillis, endMillis);
        intervals.addLast(interval);
        for (final Iterator<Attribution> it = unassigned.iterator(); it.hasNext(); ) {
            final Attribution a = it.next();
            if (a.endNanos() / 1_000_000 < endMillis) {
                record(interval, a);
                it.remove();
            }
        }
    }

    @Override
    public synchronized void drainFinished(final boolean all, final Consumer<Histogram> writer) {
        if (all) {
            drainQueue();
            attributeReady(true);
            for (final Attribution a : unassigned) {
                if (!intervals.isEmpty()) {
                    record(intervals.peekLast(), a);
                }
            }
            unassigned.clear();
        }
        // Attribute what is ready here, under the same lock: an interval finalised before its
        // stalls were attributed would send them to a later one.
        drainQueue();
        attributeReady(false);
        // A stall the meter still holds for its counters' next reading ends within a round of now.
        final long attributedUpTo = Math.min(clock.nowEpochNanos() - SETTLING_NANOS,
            pending.isEmpty() ? Long.MAX_VALUE : pending.peekFirst().end() - 1);
        final JfrPauses jfr = pauses;
        long allocationStallsUpTo = Long.MAX_VALUE;
        if (jfr != null) {
            // Read before the stalls are taken: a stall is kept before its delivery is published.
            allocationStallsUpTo = allocationStallsFinalBefore(jfr);
            assignAllocationStalls(jfr, all);
        }
        final long finalAfter = Math.min(attributedUpTo, allocationStallsUpTo) / 1_000_000;
        while (!intervals.isEmpty() && (all || intervals.peekFirst().endMillis <= finalAfter)) {
            final Interval interval = intervals.removeFirst();
            for (final Cause cause : Cause.values()) {
                final Histogram h = interval.byCause.get(cause);
                if (h != null) {
                    writeAndKeep(h, cause.tag(), interval, writer);
                } else {
                    // the one empty line, stamped for each: a new one per cause and interval was most of
                    // an idle host's log garbage, 12 histograms and their encoding buffers a second
                    writer.accept(stamped(none, cause.tag(), interval));
                }
            }
            // An interval JFR did not record in has no line: nothing said of its allocation stalls, not none.
            if (interval.allocationStalls != null) {
                writeAndKeep(interval.allocationStalls, ALLOCATION_STALL_TAG, interval, writer);
            } else if (jfr != null && interval.endMillis * 1_000_000 > jfr.recordingSince()) {
                writer.accept(stamped(none, ALLOCATION_STALL_TAG, interval));
            }
        }
    }

    private static Histogram stamped(final Histogram h, final String tag, final Interval interval) {
        h.setTag(tag);
        h.setStartTimeStamp(interval.startMillis);
        h.setEndTimeStamp(interval.endMillis);
        return h;
    }

    /**
     * How the process's CPU cgroup was throttled while the causes ran.
     *
     * @return the throttling; null where there is no cgroup whose quota and figures can be read
     */
    public synchronized CgroupThrottling throttling() {
        return os.throttling();
    }

    /** Stall time by cause so far. */
    public synchronized CauseTotals totals() {
        final JfrPauses jfr = pauses;
        final Map<Cause, Long> byNanos = new EnumMap<>(Cause.class);
        final Map<Cause, Long> byCount = new EnumMap<>(Cause.class);
        final Map<Cause, Long> byLongest = new EnumMap<>(Cause.class);
        for (final Cause cause : Cause.values()) {
            byNanos.put(cause, nanos[cause.ordinal()]);
            byCount.put(cause, counts[cause.ordinal()]);
            byLongest.put(cause, longest[cause.ordinal()]);
        }
        // A stall the queue had no room for reached no tier: unknown, beside the others, so the
        // causes still add up to every stall the meter saw.
        final long dropped = queue.dropped();
        final Map<Cause, Map<String, Long>> withDropped = new EnumMap<>(details);
        if (dropped > 0) {
            byNanos.merge(Cause.UNKNOWN, queue.droppedNanos(), Long::sum);
            byCount.merge(Cause.UNKNOWN, dropped, Long::sum);
            byLongest.merge(Cause.UNKNOWN, queue.longestDropped(), Math::max);
            final Map<String, Long> unknown = new LinkedHashMap<>(details.getOrDefault(Cause.UNKNOWN, Map.of()));
            unknown.put(UNKNOWN_DROPPED, dropped);
            withDropped.put(Cause.UNKNOWN, unknown);
        }
        return new CauseTotals(byNanos, byCount, byLongest, withDropped, pending.size(), dropped,
            jfr == null ? AllocationStalls.NONE : jfr.allocationStalls(), counters != null);
    }

    /**
     * Waits, never past the exit's deadline, for JFR to deliver past the last stall, so that the
     * final attribution at shutdown is not left guessing.
     * A stall JFR has not delivered by then is attributed at close on what has come: the
     * counters where they are read, else it is {@code unknown}.
     *
     * @param deadline the {@link System#nanoTime} by which to return: the host's exit waits
     */
    public void settle(final long deadline) {
        final long lastStall;
        synchronized (this) {
            drainQueue();
            lastStall = lastStallNanos;
        }
        final JfrPauses jfr = pauses;
        if (jfr == null || jfr.recordingSince() == Long.MAX_VALUE) {
            return;
        }
        try {
            while (lastStall != 0 && jfr.deliveredUpTo() < lastStall + SLACK_NANOS && System.nanoTime() < deadline) {
                Thread.sleep(POLL_MILLIS / 4);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the attributing thread; the stream is its owner's to close. */
    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
