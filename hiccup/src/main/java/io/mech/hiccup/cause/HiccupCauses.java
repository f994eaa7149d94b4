package io.mech.hiccup.cause;

import io.mech.hiccup.ControlStalls;
import io.mech.hiccup.EpochClock;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.hiccup.StallQueue;
import io.mech.hiccup.TaggedIntervals;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import jdk.jfr.consumer.RecordingStream;
import org.HdrHistogram.Histogram;

/**
 * Finds the cause of every stall the hiccup meter hands over, on its own daemon thread
 * {@code mech-hiccup-causes}, never on the meter's path.
 *
 * <p>JFR delivers events up to about a second after they end, so a stall is attributed only
 * once the stream has delivered an event that ended after it (a CPU-load heartbeat comes every
 * second), or {@link #HORIZON_NANOS} after it ended. Its time is split by overlap: what GC
 * pauses cover is {@code gc}, what other safepoint operations cover is {@code safepoint}, the rest
 * is {@code os}; the cause covering most of it names the stall. Pauses are widened by
 * {@link #SLACK_NANOS} on both sides for the time to reach the safepoint and the gap between
 * the meter's clock and JFR's.
 *
 * <p>Outputs: running {@link CauseTotals}; a histogram per cause and log interval, handed to
 * the log as tagged intervals once final; and each {@link Attribution} to the listeners.
 *
 * <p>Thread-safe: the attributing thread, the log thread and mech's stop meet under this object's
 * lock, which is also what makes them one consumer of the recorder's {@link StallQueue}: every
 * poll of it happens under that lock.
 */
public final class HiccupCauses implements TaggedIntervals, AutoCloseable {

    /**
     * A stall is attributed once JFR has delivered the events that ended after it, or, should
     * the stream fall silent, this long after it ended.
     */
    static final long HORIZON_NANOS = 10_000_000_000L;

    /** Widening of each pause: safepoint synchronisation before it, clock differences around it. */
    static final long SLACK_NANOS = 1_000_000L;

    private static final long POLL_MILLIS = 200;
    private static final int MAX_DETAILS = 8;

    private final StallQueue queue;
    private final JfrPauses pauses;
    private final ControlStalls control;
    private final long resolutionNanos;
    private final EpochClock clock = new EpochClock();
    private final OsCpu os = new OsCpu();
    private final List<AttributionListener> listeners = new CopyOnWriteArrayList<>();
    private final Thread thread;

    private final Deque<long[]> pending = new ArrayDeque<>();
    private final List<Attribution> unassigned = new ArrayList<>();
    private final Deque<Interval> intervals = new ArrayDeque<>();
    private final Map<Cause, Long> nanos = new EnumMap<>(Cause.class);
    private final Map<Cause, Long> counts = new EnumMap<>(Cause.class);
    private final Map<Cause, Long> longest = new EnumMap<>(Cause.class);
    private final Map<Cause, Map<String, Long>> details = new EnumMap<>(Cause.class);
    private long lastStallNanos;
    private long unattributedNanos;
    private long unattributed;
    private volatile boolean closed;

    /** One closed log interval and its stalls by cause. */
    private static final class Interval {
        final long startMillis;
        final long endMillis;
        final Map<Cause, Histogram> byCause = new EnumMap<>(Cause.class);

        Interval(final long startMillis, final long endMillis) {
            this.startMillis = startMillis;
            this.endMillis = endMillis;
        }
    }

    private HiccupCauses(final HiccupRecorder recorder, final JfrPauses pauses, final ControlStalls control) {
        this.queue = recorder.stallQueue();
        this.pauses = pauses;
        this.control = control;
        this.resolutionNanos = recorder.settings().resolutionNanos();
        this.thread = new Thread(new Runnable() {
            @Override
            public void run() {
                attributeUntilClosed();
            }
        }, "mech-hiccup-causes");
        thread.setDaemon(true);
    }

    /**
     * Starts attributing the recorder's stalls and tags its log with one histogram per cause.
     *
     * @param recorder the running hiccup recorder
     * @param control  the control JVM's stalls, or null without a control JVM
     * @param stream   mech's JFR stream, ordered and not started yet: the caller starts it once
     *                 every part has subscribed, and closes it after {@link #close}
     * @return the running attribution
     */
    public static HiccupCauses start(final HiccupRecorder recorder, final ControlStalls control,
                                     final RecordingStream stream) {
        final JfrPauses pauses = JfrPauses.subscribe(stream, recorder.settings().stallNanos());
        final HiccupCauses causes = new HiccupCauses(recorder, pauses, control);
        recorder.tagWith(causes);
        causes.thread.start();
        return causes;
    }

    /** Adds a listener told of every attributed stall. */
    public void addListener(final AttributionListener listener) {
        listeners.add(listener);
    }

    private void attributeUntilClosed() {
        long polls = 0;
        while (!closed) {
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (final InterruptedException e) {
                return;
            }
            if (polls++ % 5 == 0) {
                clock.calibrate();
                os.sample(clock.nowEpochNanos());
            }
            synchronized (this) {
                drainQueue();
                attributeEndedBefore(attributableUpTo());
            }
            pauses.prune(clock.nowEpochNanos());
        }
    }

    /** Stalls that ended before this can be attributed: JFR has delivered past them. */
    private long attributableUpTo() {
        return Math.max(pauses.deliveredUpTo() - SLACK_NANOS, clock.nowEpochNanos() - HORIZON_NANOS);
    }

    private void drainQueue() {
        queue.poll(new StallQueue.StallHandler() {
            @Override
            public void onStall(final long endNanos, final long lengthNanos) {
                final long end = clock.epochNanos(endNanos);
                pending.addLast(new long[] {end, lengthNanos});
                lastStallNanos = end;
            }
        });
    }

    private void attributeEndedBefore(final long horizon) {
        while (!pending.isEmpty() && pending.peekFirst()[0] <= horizon) {
            final long[] stall = pending.removeFirst();
            if (stall[0] - stall[1] < pauses.recordingSince()) {
                unattributedNanos += stall[1];
                unattributed++;
                continue;
            }
            final Attribution attribution = attribute(stall[0], stall[1]);
            count(attribution);
            assign(attribution);
            for (final AttributionListener listener : listeners) {
                listener.attributed(attribution);
            }
        }
    }

    private Attribution attribute(final long end, final long length) {
        final long start = end - length;
        final List<PauseWindow> windows = pauses.overlapping(start, end, SLACK_NANOS);
        final Map<Cause, Long> portions = split(start, end, windows);
        final Cause main = mainCause(portions);
        return new Attribution(end, length, main, detail(main, windows, start, end), portions);
    }

    /**
     * How much of [start, end] each cause covers: GC pauses first, mech's own safepoints next,
     * then other safepoints, then the time to reach them, the OS the rest. The operations come
     * before the time to safepoint because their windows are widened by the slack, which stands
     * for a short synchronisation when JFR reports none.
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
        return portions;
    }

    /** The cause covering most; the OS when nothing in the JVM covers more. */
    static Cause mainCause(final Map<Cause, Long> portions) {
        Cause main = Cause.OS;
        for (final Cause cause : Cause.values()) {
            if (portions.get(cause) > portions.get(main)) {
                main = cause;
            }
        }
        return main;
    }

    /** How much of [start, end] the windows of one cause (or of any cause, for null) cover together. */
    private static long covered(final List<PauseWindow> windows, final Set<Cause> causes, final long start, final long end) {
        final List<long[]> spans = new ArrayList<>();
        for (final PauseWindow w : windows) {
            if (causes.contains(w.cause())) {
                spans.add(new long[] {Math.max(start, w.startNanos() - SLACK_NANOS), Math.min(end, w.endNanos() + SLACK_NANOS)});
            }
        }
        spans.sort((a, b) -> Long.compare(a[0], b[0]));
        long total = 0;
        long reached = start;
        for (final long[] span : spans) {
            final long from = Math.max(reached, span[0]);
            if (span[1] > from) {
                total += span[1] - from;
                reached = span[1];
            }
        }
        return total;
    }

    private String detail(final Cause cause, final List<PauseWindow> windows, final long start, final long end) {
        if (cause != Cause.OS) {
            PauseWindow widest = null;
            for (final PauseWindow w : windows) {
                if (w.cause() == cause && (widest == null
                    || w.overlap(start, end, SLACK_NANOS) > widest.overlap(start, end, SLACK_NANOS))) {
                    widest = w;
                }
            }
            return widest == null ? cause.tag() : widest.detail();
        }
        final List<String> found = new ArrayList<>(2);
        if (control != null && control.stalledDuring(start, end)) {
            found.add("control JVM stalled too: host-level");
        }
        final String cpu = os.across(start, end);
        if (!cpu.isEmpty()) {
            found.add(cpu);
        }
        return found.isEmpty() ? "nothing in the JVM" : String.join("; ", found);
    }

    private void count(final Attribution a) {
        a.portions().forEach((cause, portion) -> nanos.merge(cause, portion, Long::sum));
        counts.merge(a.cause(), 1L, Long::sum);
        longest.merge(a.cause(), a.lengthNanos(), Math::max);
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
        interval.byCause.computeIfAbsent(a.cause(), c -> new Histogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS,
            HiccupRecorder.SIGNIFICANT_DIGITS)).recordValueWithExpectedInterval(a.lengthNanos(), resolutionNanos);
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
    public synchronized List<Histogram> drainFinished(final boolean all) {
        if (all) {
            drainQueue();
            attributeEndedBefore(Long.MAX_VALUE);
            for (final Attribution a : unassigned) {
                if (!intervals.isEmpty()) {
                    record(intervals.peekLast(), a);
                }
            }
            unassigned.clear();
        }
        // Attribute up to the bound here, under the same lock: an interval finalised before its
        // stalls were attributed would send them to a later one.
        final long bound = attributableUpTo();
        drainQueue();
        attributeEndedBefore(bound);
        final long finalAfter = bound / 1_000_000;
        final List<Histogram> finished = new ArrayList<>();
        while (!intervals.isEmpty() && (all || intervals.peekFirst().endMillis <= finalAfter)) {
            final Interval interval = intervals.removeFirst();
            for (final Cause cause : Cause.values()) {
                // get, not getOrDefault: the default, a histogram of some 300 KiB, would be built for every cause
                Histogram h = interval.byCause.get(cause);
                if (h == null) {
                    h = new Histogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS);
                }
                h.setTag(cause.tag());
                h.setStartTimeStamp(interval.startMillis);
                h.setEndTimeStamp(interval.endMillis);
                finished.add(h);
            }
        }
        return finished;
    }

    /** Stall time by cause so far. */
    public synchronized CauseTotals totals() {
        return new CauseTotals(nanos, counts, longest, details, unattributed, unattributedNanos, pending.size(), queue.dropped());
    }

    /**
     * Waits, never past the exit's deadline, for JFR to deliver past the last stall, so that the
     * final attribution at shutdown is not left guessing.
     * A stall JFR has not delivered by then stays pending, counted as such in the report.
     *
     * @param deadline the {@link System#nanoTime} by which to return: the host's exit waits
     */
    public void settle(final long deadline) {
        final long lastStall;
        synchronized (this) {
            drainQueue();
            lastStall = lastStallNanos;
        }
        try {
            while (lastStall != 0 && pauses.deliveredUpTo() < lastStall + SLACK_NANOS && System.nanoTime() < deadline) {
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
