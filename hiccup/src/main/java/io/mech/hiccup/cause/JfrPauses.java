package io.mech.hiccup.cause;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JVM's own pauses, as a JFR stream reports them: every GC pause ({@code jdk.GCPhasePause},
 * named by {@code jdk.GarbageCollection} of the same GC id), every safepoint VM operation at
 * least as long as the attribution threshold ({@code jdk.ExecuteVMOperation}), and every wait
 * of a millisecond or more for threads to reach a safepoint
 * ({@code jdk.SafepointStateSynchronization}), which comes before the operation it serves; and
 * ZGC's allocation stalls ({@code jdk.ZAllocationStall}): a thread that allocates faster than
 * the concurrent collector frees waits for memory outside any safepoint, where HotSpot's
 * counters see nothing. The meter's own are windows of the GC cause; every thread's are summed
 * in {@link #allocationStalls()} and kept one by one until the log takes them
 * ({@link #takeAllocationStalls}).
 *
 * <p>Event settings are JVM-wide, so they show in the user's own recordings too. GC events keep
 * the JDK's default.jfc thresholds (0 ms). VM operations are lowered from default.jfc's 10 ms to
 * the attribution threshold (2 ms by default), because a 2 to 10 ms safepoint would otherwise be
 * put down to the OS; such operations are rare, so the extra events are few.
 *
 * <p>Thread-safe, under this object's lock: the stream's thread adds, the attributing thread
 * reads and prunes, the log thread takes the allocation stalls. What has been delivered, and
 * since when JFR records, are published through volatile fields, each written after the events
 * it speaks of were added.
 */
final class JfrPauses {

    /** Pauses older than this are no longer needed: stalls are attributed within seconds. */
    private static final long KEEP_NANOS = 60_000_000_000L;

    private static final long[] NO_PAUSES = new long[0];

    /**
     * The shortest wait for threads to reach a safepoint that is heard of: a shorter one is what
     * the attribution's slack around each operation already stands for. default.jfc leaves these
     * events off; on, at this threshold, a healthy JVM has few.
     */
    static final long TTSP_THRESHOLD_NANOS = 1_000_000L;

    /** What a time-to-safepoint window says: JFR names neither the late thread nor its code. */
    static final String TTSP_DETAIL = "time to safepoint";

    /** The shortest allocation stall heard of; a shorter one is below any stall the meter reports. */
    static final long ALLOCATION_STALL_THRESHOLD_NANOS = 1_000_000L;

    /** The detail of a stall the meter spent waiting for memory. */
    static final String ALLOCATION_STALL = "allocation stall";

    private static final int MAX_THREADS_COUNTED = 100_000;

    /**
     * The most allocation stalls kept for the log: the log thread takes them every interval, so
     * only a log thread that has stopped (the recorder closed before the JVM exits) lets them pile up.
     */
    private static final int MAX_UNLOGGED = 100_000;

    private final Deque<PauseWindow> windows = new ArrayDeque<>();
    /** The meter's own waits for memory. */
    private final Deque<PauseWindow> meterStalls = new ArrayDeque<>();
    private final long meterThreadId;
    private final Set<Long> stalledThreads = new HashSet<>();
    private long allocationStalls;
    private long allocationStallNanos;
    private long longestAllocationStall;
    /** Every thread's allocation stalls the log has not taken: end and length in turn, epoch nanoseconds. */
    private long[] unlogged = new long[64];
    private int unloggedLength;
    private final Map<Long, long[]> gcPauses = new HashMap<>();
    private final Map<Long, String> gcNames = new HashMap<>();
    private volatile long deliveredUpTo;
    private volatile long recordingSince = Long.MAX_VALUE;

    /** Pauses with no stream: {@link #subscribe} feeds them, tests call the handlers' targets directly. */
    JfrPauses(final long meterThreadId) {
        this.meterThreadId = meterThreadId;
    }

    /**
     * Subscribes to the pause events of a stream that is not started yet. The stream must be
     * ordered: an event ending at T then means every event that ended before T was delivered.
     *
     * @param stream                  mech's JFR stream, shared with other parts
     * @param safepointThresholdNanos the shortest VM operation to hear of
     * @param meterThreadId           the hiccup meter's thread id, whose allocation stalls are its stalls' cause
     * @return the pauses, filled in once the stream runs
     */
    static JfrPauses subscribe(final RecordingStream stream, final long safepointThresholdNanos, final long meterThreadId) {
        stream.enable("jdk.GCPhasePause").withThreshold(Duration.ZERO);
        stream.enable("jdk.GarbageCollection").withThreshold(Duration.ZERO);
        stream.enable("jdk.ExecuteVMOperation").withThreshold(Duration.ofNanos(safepointThresholdNanos));
        stream.enable("jdk.SafepointStateSynchronization").withThreshold(Duration.ofNanos(TTSP_THRESHOLD_NANOS));
        stream.enable("jdk.ZAllocationStall").withThreshold(Duration.ofNanos(ALLOCATION_STALL_THRESHOLD_NANOS));
        // A heartbeat at default.jfc's own period, so that delivery advances when nothing pauses.
        stream.enable("jdk.CPULoad").withPeriod(Duration.ofSeconds(1));
        final JfrPauses pauses = new JfrPauses(meterThreadId);
        // JFR's first recording in a JVM takes a few hundred milliseconds to start; stalls
        // before it runs have no events to be matched with, and only the counters speak of them.
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recordingStateChanged(final Recording recording) {
                if (recording.getState() == RecordingState.RUNNING && pauses.recordingSince == Long.MAX_VALUE) {
                    pauses.recordingSince(epochNanos(Instant.now()));
                    FlightRecorder.removeListener(this);
                }
            }
        });
        stream.onEvent("jdk.GCPhasePause", pauses::onGcPause);
        stream.onEvent("jdk.GarbageCollection", pauses::onGarbageCollection);
        stream.onEvent("jdk.ExecuteVMOperation", pauses::onVmOperation);
        stream.onEvent("jdk.SafepointStateSynchronization", pauses::onSafepointSynchronization);
        stream.onEvent("jdk.ZAllocationStall", pauses::onAllocationStall);
        // Last: a stream runs an event's actions in the order they were added, so an event counts
        // as delivered only once the action above has kept it.
        stream.onEvent(pauses::delivered);
        return pauses;
    }

    private void delivered(final RecordedEvent event) {
        delivered(epochNanos(event.getEndTime()));
    }

    /** An event that ended at {@code endNanos} (epoch) was delivered; called on the stream's thread only. */
    void delivered(final long endNanos) {
        if (endNanos > deliveredUpTo) {
            deliveredUpTo = endNanos;
        }
    }

    /** JFR records from this time (epoch nanoseconds) on. */
    void recordingSince(final long epochNanos) {
        recordingSince = epochNanos;
    }

    /** Events are recorded from this time on (epoch nanoseconds); until then, Long.MAX_VALUE. */
    long recordingSince() {
        return recordingSince;
    }

    /** Every event that ended before this (epoch nanoseconds) has been delivered. */
    long deliveredUpTo() {
        return deliveredUpTo;
    }

    private static long epochNanos(final Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    private synchronized void onGcPause(final RecordedEvent event) {
        final long start = epochNanos(event.getStartTime());
        final long end = epochNanos(event.getEndTime());
        final long gcId = event.getLong("gcId");
        final String name = gcNames.get(gcId);
        if (name != null) {
            windows.add(new PauseWindow(start, end, Cause.GC, name));
        } else {
            final long[] before = gcPauses.getOrDefault(gcId, NO_PAUSES);
            final long[] more = Arrays.copyOf(before, before.length + 2);
            more[before.length] = start;
            more[before.length + 1] = end;
            gcPauses.put(gcId, more);
        }
    }

    private synchronized void onGarbageCollection(final RecordedEvent event) {
        final long gcId = event.getLong("gcId");
        final String name = event.getString("name") + " (" + event.getString("cause") + ")";
        final long[] pending = gcPauses.remove(gcId);
        if (pending != null) {
            for (int i = 0; i < pending.length; i += 2) {
                windows.add(new PauseWindow(pending[i], pending[i + 1], Cause.GC, name));
            }
        } else {
            gcNames.put(gcId, name);
        }
    }

    private synchronized void onVmOperation(final RecordedEvent event) {
        if (event.getBoolean("safepoint")) {
            final String operation = event.getString("operation");
            final Cause cause = collectorOperation(operation) ? Cause.GC
                : mechsThread(event.getThread("caller")) ? Cause.MECH : Cause.SAFEPOINT;
            windows.add(new PauseWindow(epochNanos(event.getStartTime()), epochNanos(event.getEndTime()), cause, operation));
        }
    }

    private synchronized void onSafepointSynchronization(final RecordedEvent event) {
        windows.add(new PauseWindow(epochNanos(event.getStartTime()), epochNanos(event.getEndTime()), Cause.TTSP, TTSP_DETAIL));
    }

    private void onAllocationStall(final RecordedEvent event) {
        final RecordedThread thread = event.getThread();
        allocationStall(epochNanos(event.getStartTime()), epochNanos(event.getEndTime()), thread == null ? -1 : thread.getJavaThreadId());
    }

    /** A thread waited for memory over [start, end] (epoch nanoseconds). */
    synchronized void allocationStall(final long start, final long end, final long id) {
        allocationStalls++;
        allocationStallNanos += end - start;
        longestAllocationStall = Math.max(longestAllocationStall, end - start);
        if (stalledThreads.size() < MAX_THREADS_COUNTED) {
            stalledThreads.add(id);
        }
        if (id == meterThreadId) {
            meterStalls.add(new PauseWindow(start, end, Cause.GC, ALLOCATION_STALL));
        }
        if (unloggedLength < 2 * MAX_UNLOGGED) {
            if (unloggedLength == unlogged.length) {
                unlogged = Arrays.copyOf(unlogged, unloggedLength * 2);
            }
            unlogged[unloggedLength++] = end;
            unlogged[unloggedLength++] = end - start;
        }
    }

    /**
     * Takes, for the log, the allocation stalls that ended before {@code beforeNanos}; the later
     * ones stay for the next call.
     *
     * @param beforeNanos epoch nanoseconds; Long.MAX_VALUE takes every one
     * @return their ends (epoch nanoseconds) and lengths in turn, in the order they were delivered
     */
    synchronized long[] takeAllocationStalls(final long beforeNanos) {
        int taken = 0;
        int kept = 0;
        final long[] out = new long[unloggedLength];
        for (int i = 0; i < unloggedLength; i += 2) {
            if (unlogged[i] < beforeNanos) {
                out[taken++] = unlogged[i];
                out[taken++] = unlogged[i + 1];
            } else {
                unlogged[kept++] = unlogged[i];
                unlogged[kept++] = unlogged[i + 1];
            }
        }
        unloggedLength = kept;
        return taken == out.length ? out : Arrays.copyOf(out, taken);
    }

    /** Every thread's allocation stalls so far. */
    synchronized AllocationStalls allocationStalls() {
        return new AllocationStalls(allocationStalls, allocationStallNanos, longestAllocationStall, stalledThreads.size());
    }

    /** How much of [start, end], widened by the slack, the meter spent waiting for memory. */
    synchronized long meterAllocationStalled(final long start, final long end, final long slack) {
        final List<PauseWindow> found = new ArrayList<>();
        for (final PauseWindow window : meterStalls) {
            if (window.overlap(start, end, slack) > 0) {
                found.add(window);
            }
        }
        return HiccupCauses.covered(found, EnumSet.of(Cause.GC), start, end);
    }

    /**
     * Whether the thread that asked for a VM operation is mech's: every thread mech starts is
     * named {@code mech-...}, and the operations they ask for (class redefinitions that weave or
     * unweave a probe) are mech's own cost.
     */
    static boolean mechsThread(final RecordedThread caller) {
        final String name = caller == null ? null : caller.getJavaName();
        return name != null && name.startsWith("mech-");
    }

    /**
     * Whether a VM operation is a collector's: some GC pauses (G1's Remark and Cleanup, say)
     * come only as an operation, without a GC pause event of their own.
     */
    static boolean collectorOperation(final String operation) {
        return operation.startsWith("G1") || operation.startsWith("Z") || operation.startsWith("Shenandoah")
            || operation.contains("GC") || operation.contains("Collect");
    }

    /** The pauses that overlap [start - slack, end + slack], GC pauses still waiting for their name included. */
    synchronized List<PauseWindow> overlapping(final long start, final long end, final long slack) {
        final List<PauseWindow> found = new ArrayList<>();
        for (final PauseWindow window : windows) {
            if (window.overlap(start, end, slack) > 0) {
                found.add(window);
            }
        }
        for (final long[] pending : gcPauses.values()) {
            for (int i = 0; i < pending.length; i += 2) {
                final PauseWindow window = new PauseWindow(pending[i], pending[i + 1], Cause.GC, "GC");
                if (window.overlap(start, end, slack) > 0) {
                    found.add(window);
                }
            }
        }
        return found;
    }

    /** Forgets pauses that ended long before now. */
    synchronized void prune(final long nowNanos) {
        while (!windows.isEmpty() && windows.peekFirst().endNanos() < nowNanos - KEEP_NANOS) {
            windows.removeFirst();
        }
        while (!meterStalls.isEmpty() && meterStalls.peekFirst().endNanos() < nowNanos - KEEP_NANOS) {
            meterStalls.removeFirst();
        }
        if (gcNames.size() > 10_000) {
            gcNames.clear();
        }
    }
}
