package io.mech.hiccup;

import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Measures the hiccups of this JVM and logs them interval by interval.
 *
 * <p>Two daemon threads: {@code mech-hiccup-meter} measures (see {@link HiccupMeter}) and
 * {@code mech-hiccup-log} closes an interval every {@link HiccupSettings#intervalNanos()},
 * adds it to the running total and appends it to the log. Intervals are written even when
 * empty, because a gap in a log is itself a finding.
 *
 * <p>The meter may start on its own ({@link #startMeter}), before the host's main, and the log
 * later ({@link #startLog}): the meter then measures from the host's first line on memory it took
 * before it, through a heap the host fills from there, and the first interval, when the log
 * begins, covers everything since the meter began.
 *
 * <p>Guarantees: {@link #close()} stops both threads and writes the last, partial interval
 * exactly once, so no recorded sample is lost at shutdown (it waits at most 20 ms for the meter
 * to end; a meter not scheduled by then loses what it measures meanwhile); it may be called from
 * a shutdown hook and more than once. {@link #snapshot()} may be called from any thread at any time.
 *
 * <p>Example use:
 * <pre>{@code
 * HiccupRecorder hiccups = HiccupRecorder.start(settings, System.err::println);
 * ...
 * hiccups.close();
 * long p99 = hiccups.snapshot().percentileNanos(99.0);
 * }</pre>
 */
public final class HiccupRecorder implements AutoCloseable {

    /**
     * Precision of every histogram mech keeps: three decimal digits. jHiccup keeps two, whose
     * buckets near 300 ms are 2 ms wide, too coarse to tell a 300 ms stop from a 298 ms one.
     */
    public static final int SIGNIFICANT_DIGITS = 3;

    /** How long the close waits for the meter to hand over its last stall. */
    private static final long METER_END_MILLIS = 20;

    /**
     * How long the stall queue holds the stalls that can happen back to back. Their attribution
     * polls every 200 ms: ten polls of slack for a consumer held up by a storm.
     */
    private static final long STALL_QUEUE_SPAN_NANOS = 2_000_000_000L;
    private static final int STALL_QUEUE_MIN = 256;
    private static final int STALL_QUEUE_MAX = 4096;
    private static final int WATCH_QUEUE_CAPACITY = 256;

    /** The settings; their log is null until {@link #startLog}, then the file written. Written under this recorder's monitor. */
    private volatile HiccupSettings settings;
    private final SingleWriterRecorder recorder;
    private final HiccupMeter meter;
    private final StallQueue stallQueue;
    /** HotSpot's counters the meter reads, or null. */
    private final VmCounters counters;
    /**
     * A second consumer's copy of the stalls: each ring has one consumer, and the profiler polls
     * at its own pace; it only needs the long ones, so a small ring that drops under a storm is enough.
     */
    private final StallQueue watchQueue = new StallQueue(WATCH_QUEUE_CAPACITY);
    private volatile TaggedIntervals tags;
    /** The log; null until {@link #startLog}, and without one. Under this recorder's monitor. */
    private IntervalLog log;
    private final Thread meterThread;
    /** Null until {@link #startLog}; written under this recorder's monitor. */
    private Thread logThread;
    /** When the meter began, System.nanoTime(): the log's delay and its interval boundaries count from there. */
    private final long meterStartNanos;
    /**
     * Guards {@link #total}, {@link #intervals}, {@link #lastIntervalMaxNanos} and
     * {@link #closedIntervals}: the log thread adds each closed interval, readers copy. Not the
     * recorder's monitor, which the log thread holds through its disk write: a scrape never waits
     * for that.
     */
    private final Object totals = new Object();
    private final Histogram total = new Histogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    private Histogram interval;
    private long intervals;
    private long lastIntervalMaxNanos;
    /** Written by the log thread under this object's lock, read by the report on any thread. */
    private volatile long intervalsLost;
    private long intervalStartMillis;
    private long startMillis;
    private boolean logging;
    private boolean closed;
    /**
     * The closed intervals' snapshot, made by the first {@link #snapshot()} after an interval
     * closed and shared by the later ones; null while none is made. Made on read, not as each
     * interval closes: a copy of the distribution is 256 KiB, and an idle host that nobody reads
     * between its one-second intervals made one a second, most of its young generation's growth
     * over its first 10 s.
     */
    private HiccupSnapshot closedIntervals;
    /** The virtual-thread meter, once {@link #meterVirtualThreads()} started one; written under this recorder's monitor. */
    private volatile VirtualMeter virtual;

    private HiccupRecorder(final HiccupSettings settings, final VmCounters counters) {
        this.recorder = new SingleWriterRecorder(HiccupSettings.HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
        this.counters = counters;
        this.stallQueue = new StallQueue(stallQueueCapacity(settings), HiccupMeter.evidenceWidth(counters));
        this.meter = new HiccupMeter(recorder, settings.resolutionNanos(), settings.stallNanos(), stallQueue, watchQueue, counters);
        this.settings = settings.withLog(null);
        // the recorder's second histogram too, now: made at the first interval, it would be made in whatever heap the host left
        this.interval = recorder.getIntervalHistogram();
        this.meterThread = daemon(meter, "mech-hiccup-meter");
        this.meterStartNanos = System.nanoTime();
        this.startMillis = System.currentTimeMillis();
        this.intervalStartMillis = startMillis;
    }

    /**
     * Starts measuring and logging.
     *
     * @param settings what to measure and where to log
     * @param warnings receives one line for each problem with the log; recording goes on
     * @return the running recorder
     */
    public static HiccupRecorder start(final HiccupSettings settings, final Consumer<String> warnings) {
        return start(settings, null, warnings);
    }

    /**
     * @return the nanoseconds the VM has held every Java thread so far, at safepoints and on the way
     *         to them, by HotSpot's counters; -1 where the JVM keeps none
     */
    public long vmStoppedNanos() {
        return counters == null ? -1 : counters.nanos(counters.stoppedTicks());
    }

    /**
     * Starts measuring and logging, each stall handed over with what HotSpot's counters moved by across it.
     *
     * @param settings what to measure and where to log
     * @param counters HotSpot's counters ({@link VmCounters#open()}), or null for stalls without evidence
     * @param warnings receives one line for each problem with the log; recording goes on
     * @return the running recorder
     */
    public static HiccupRecorder start(final HiccupSettings settings, final VmCounters counters, final Consumer<String> warnings) {
        final HiccupRecorder hiccups = startMeter(settings, counters);
        hiccups.startLog(settings.log(), warnings);
        return hiccups;
    }

    /**
     * Starts measuring, without the log: what it takes it takes now (the histograms, the stall
     * queue, the meter thread), so that it measures on through a heap that is full later.
     * {@link #startLog} follows; until then the intervals are neither closed nor logged, and a
     * {@link #close()} closes one interval since the meter began (none within a delay, whose
     * samples are discarded).
     *
     * @param settings what to measure; their log is ignored, {@link #startLog} names it
     * @param counters HotSpot's counters ({@link VmCounters#open()}), or null for stalls without evidence
     * @return the recorder, measuring
     */
    public static HiccupRecorder startMeter(final HiccupSettings settings, final VmCounters counters) {
        final HiccupRecorder hiccups = new HiccupRecorder(settings, counters);
        hiccups.meterThread.start();
        return hiccups;
    }

    /**
     * Opens the log and starts closing intervals, the first from when the meter began; with a
     * delay, which counts from the meter's start, what came before the log began is discarded and
     * the intervals run from then. Once: later calls do nothing.
     *
     * @param logPath  the interval log to write, or null to record in memory only
     * @param warnings receives one line for each problem with the log; recording goes on
     */
    public synchronized void startLog(final Path logPath, final Consumer<String> warnings) {
        if (logThread != null || closed) {
            return;
        }
        if (logPath != null && log == null) {
            // kept at once: an OutOfMemoryError after it, and the start tried again, must not open the file twice
            log = IntervalLog.open(logPath, warnings);
        }
        settings = settings.withLog(log == null ? null : log.status().path());
        final Thread thread = daemon(new Runnable() {
            @Override
            public void run() {
                logIntervals();
            }
        }, "mech-hiccup-log");
        thread.start();
        logThread = thread;
    }

    /**
     * Room for {@link #STALL_QUEUE_SPAN_NANOS} of stalls: a stall takes a round and at least the
     * threshold, so at the defaults (1 ms, 2 ms) at most 333 come a second. A fixed 4,096 slots of
     * evidence were 384 KiB of a fresh host's resident heap; a consumer that falls behind a whole
     * ring drops stalls, and the drops are counted.
     */
    static int stallQueueCapacity(final HiccupSettings settings) {
        final long most = STALL_QUEUE_SPAN_NANOS / (settings.resolutionNanos() + settings.stallNanos()) + 1;
        final int fits = Integer.highestOneBit((int) Math.min(most, STALL_QUEUE_MAX) - 1) << 1;
        return Math.max(STALL_QUEUE_MIN, Math.min(STALL_QUEUE_MAX, fits));
    }

    private static Thread daemon(final Runnable task, final String name) {
        final Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    private void logIntervals() {
        if (!parkUntil(meterStartNanos + settings.delayNanos()) || !beginLogging()) {
            return;
        }
        final long interval = settings.intervalNanos();
        final long now = System.nanoTime();
        long next = now + interval;
        if (settings.delayNanos() == 0) {
            // the boundaries keep the meter's rhythm; the first interval also covers those that passed before the log began
            next = meterStartNanos + interval;
            if (next <= now) {
                next += ((now - next) / interval + 1) * interval;
            }
        }
        while (parkUntil(next)) {
            synchronized (this) {
                if (closed) {
                    return;
                }
                try {
                    closeInterval();
                } catch (final OutOfMemoryError full) {
                    // The host's heap is full: this interval's line is lost, the meter goes on
                    // measuring into the next. Nothing else here: code run for the first time
                    // under a full heap may itself need memory to link.
                    intervalsLost++;
                }
            }
            next += interval;
        }
    }

    /** Discards what a delay covered and writes the log header; false once closed. */
    private synchronized boolean beginLogging() {
        if (closed) {
            return false;
        }
        if (settings.delayNanos() > 0) {
            interval = recorder.getIntervalHistogram(interval);
            final VirtualMeter v = virtual;
            if (v != null) {
                v.discard();
            }
            synchronized (totals) {
                startMillis = System.currentTimeMillis();
                closedIntervals = null;
            }
            intervalStartMillis = startMillis;
        }
        logging = true;
        if (log != null) {
            log.writeHeader(startMillis);
        }
        return true;
    }

    /** Parks until the deadline; false when interrupted by {@link #close()}. */
    private static boolean parkUntil(final long deadline) {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remaining);
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return !Thread.currentThread().isInterrupted();
    }

    private void closeInterval() {
        interval = recorder.getIntervalHistogram(interval);
        final long endMillis = System.currentTimeMillis();
        interval.setStartTimeStamp(intervalStartMillis);
        interval.setEndTimeStamp(endMillis);
        intervalStartMillis = endMillis;
        synchronized (totals) {
            total.add(interval);
            intervals++;
            lastIntervalMaxNanos = interval.getMaxValue();
            closedIntervals = null;
        }
        if (log != null) {
            log.write(interval);
        }
        final VirtualMeter v = virtual;
        if (v != null) {
            final Histogram carrierWaits = v.closeInterval(interval.getStartTimeStamp(), endMillis, startMillis);
            if (log != null) {
                log.write(carrierWaits);
            }
        }
        final TaggedIntervals tagged = tags;
        if (tagged != null) {
            tagged.intervalClosed(interval.getStartTimeStamp(), endMillis);
            tagged.drainFinished(closed, taggedWriter);
        }
    }

    /** Writes a tagged interval; a class, not a method reference: a short host's first interval closes on its exit path. */
    private final Consumer<Histogram> taggedWriter = new Consumer<Histogram>() {
        @Override
        public void accept(final Histogram histogram) {
            if (log != null) {
                log.write(histogram);
            }
        }
    };

    /** @return the intervals whose log line was lost because the host's heap was full as they closed */
    public long intervalsLost() {
        return intervalsLost;
    }

    /**
     * Keeps the meter's parks under half this threshold from now on: call when a JFR stream
     * starts to record {@code jdk.ThreadPark} from it. Any thread.
     */
    public void keepParksUnder(final long thresholdNanos) {
        meter.keepParksUnder(thresholdNanos);
    }

    /** The stalls the meter hands over, for the one consumer that attributes them. */
    public StallQueue stallQueue() {
        return stallQueue;
    }

    /** The meter thread's id, as JFR's events name their thread. */
    public long meterThreadId() {
        return meterThread.getId();
    }

    /**
     * What stopped the JVM before the meter's first round, from HotSpot's counters.
     *
     * @return the stops; null until the meter began, or where it reads no counters
     */
    public UnmeteredStops unmetered() {
        return meter.unmetered();
    }

    /** The meter's run-queue wait since it began, from the kernel; -1 where the kernel gives none. */
    public long meterRunQueueNanos() {
        return meter.runQueueNanos();
    }

    /** The process's CPU cgroup, whose throttling explains stalls; null for none. */
    public CpuCgroup cgroup() {
        return CpuCgroup.ofThisProcess();
    }

    /** HotSpot's counters behind the stall queue's evidence, or null when its stalls carry none. */
    public VmCounters counters() {
        return counters;
    }

    /** The same stalls for one watcher that acts on long ones (the profiler's hiccup trigger). */
    public StallQueue watchQueue() {
        return watchQueue;
    }

    /**
     * Adds tagged intervals (one per cause, say) to the log: told of each interval as it
     * closes, the source returns the tagged histograms that are final, and they are written
     * after the untagged total.
     */
    public void tagWith(final TaggedIntervals source) {
        this.tags = source;
    }

    /**
     * Starts a second meter on a virtual thread (JDK 21 and later): its intervals are logged
     * with {@code Tag=virtual} beside the host's, and {@link #virtualSnapshot()} reads them.
     *
     * @return whether it runs: false on a JVM without virtual threads, or once closed
     */
    public synchronized boolean meterVirtualThreads() {
        if (!closed && virtual == null) {
            virtual = VirtualMeter.start(settings.resolutionNanos(), settings.stallNanos());
        }
        return virtual != null;
    }

    /** What the virtual-thread meter recorded, as {@link #snapshot()}; null when none runs. */
    public HiccupSnapshot virtualSnapshot() {
        final VirtualMeter v = virtual;
        return v == null ? null : v.snapshot();
    }

    /** The hiccups recorded in the intervals closed so far, and the stalls counted up to now; any thread. */
    public HiccupSnapshot snapshot() {
        final HiccupSnapshot closed;
        synchronized (totals) {
            if (closedIntervals == null) {
                closedIntervals = new HiccupSnapshot(total, intervals, startMillis, lastIntervalMaxNanos, 0, 0);
            }
            closed = closedIntervals;
        }
        return closed.withStalls(meter.stalls(), meter.stallNanos());
    }

    /**
     * What became of the log: the file written, or why none was (it may also have stopped part
     * way, a full disk say). Null when the settings ask for no log.
     */
    public synchronized LogStatus logStatus() {
        return log == null ? null : log.status();
    }

    /**
     * The settings this recorder runs with; their log is the file written to, which is the one
     * asked for plus {@code .<pid>} when another process was writing that (see {@link #logStatus()}).
     */
    public HiccupSettings settings() {
        return settings;
    }

    /** Stops measuring, writes the last partial interval and closes the log. */
    @Override
    public void close() {
        final Thread writer;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            writer = logThread;
        }
        meter.stop();
        final VirtualMeter v = virtual;
        if (v != null) {
            v.stop();
        }
        // The meter ends within a park (0.5 ms) and hands over the stall it holds: wait for that
        // briefly, not for a machine with more busy threads than cores to schedule it, which cost
        // the host's exit seconds with a join of 2 s. The log thread, interrupted, finds closed
        // under this monitor and writes nothing more.
        try {
            meterThread.join(METER_END_MILLIS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (writer != null) {
            writer.interrupt();
        }
        synchronized (this) {
            if (logging) {
                closeInterval();
            } else if (settings.delayNanos() == 0) {
                // the log thread had not begun (a host that ends as mech's start reaches the log, or
                // before): what the meter measured since it began is one interval still; closed is
                // set, so the log thread never writes a header after this one
                if (log != null) {
                    log.writeHeader(startMillis);
                }
                closeInterval();
            }
            if (log != null) {
                log.close();
            }
        }
    }
}
