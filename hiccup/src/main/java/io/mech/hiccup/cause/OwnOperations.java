package io.mech.hiccup.cause;

import io.mech.hiccup.VmCounters;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The VM operations mech itself asked for (redefining or retransforming classes to weave or
 * unweave a probe), timed by the thread that asked: the stall they cause is mech's own cost, from
 * the first one on, with or without JFR, under {@code -javaagent} and under {@code attach}.
 *
 * <p>An operation counts from its {@link #begin}: one call may retransform hundreds of classes and
 * return seconds after its safepoint, by when the stall is already attributed.
 *
 * <p>Each call also reads HotSpot's safepoint counters ({@link VmCounters}) as it begins and ends,
 * so that {@link #stops} says how long the JVM stood stopped while mech's calls ran, whatever the
 * meter's stalls were put down to: on a busy machine a stall that holds mech's stop can wait
 * longer still for a core, and goes to {@code runqueue}.
 *
 * <p>Thread contract: any thread records its operation with {@link #begin} and {@link #end};
 * the attributing thread reads {@link #overlap}, the report {@link #stops}. Every method holds
 * this object's monitor, held only for a few array operations and counter loads; the operations
 * kept are bounded.
 */
public final class OwnOperations {

    /** Operations that ended longer ago than this are of no use: stalls are attributed within seconds. */
    private static final long KEEP_NANOS = 60_000_000_000L;
    private static final int MAX_KEPT = 1024;

    /** One operation: [start, end] in System.nanoTime(), end Long.MAX_VALUE while it runs; guarded by the monitor. */
    public static final class Operation {
        private final long start;
        private final String name;
        private long end = Long.MAX_VALUE;
        /** The safepoint counters when the call began; null where the JVM keeps none. */
        private final long[] counted;

        private Operation(final long start, final String name, final long[] counted) {
            this.start = start;
            this.name = name;
            this.counted = counted;
        }
    }

    /**
     * What mech's calls of one kind stopped the JVM for.
     *
     * @param name       what mech asked for, such as {@code RetransformClasses}
     * @param calls      calls that returned
     * @param safepoints safepoints that began while they ran; -1 where the JVM keeps no counters
     * @param nanos      time at those safepoints and waiting for threads to reach them; -1 where the
     *                   JVM keeps no counters
     */
    public record Stop(String name, long calls, long safepoints, long nanos) {
    }

    private final Deque<Operation> operations = new ArrayDeque<>();
    /** Each kind's calls, safepoints and stopped nanoseconds, in the order first asked for. */
    private final Map<String, long[]> stopped = new LinkedHashMap<>();
    private VmCounters counters;
    private boolean countersOpened;

    /**
     * Records that mech is about to ask the JVM for an operation.
     *
     * @param name what mech asks for, such as {@code RetransformClasses}
     * @return the operation, to hand to {@link #end} once the call returns
     */
    public synchronized Operation begin(final String name) {
        final Operation operation = new Operation(System.nanoTime(), name, counted());
        operations.removeIf(old -> old.end < operation.start - KEEP_NANOS);
        if (operations.size() >= MAX_KEPT) {
            operations.removeFirst();
        }
        operations.addLast(operation);
        return operation;
    }

    /** Records that the call has returned. */
    public synchronized void end(final Operation operation) {
        operation.end = System.nanoTime();
        final long[] kind = stopped.computeIfAbsent(operation.name, k -> new long[3]);
        kind[0]++;
        final long[] now = operation.counted == null ? null : counted();
        if (now == null) {
            kind[1] = -1;
            kind[2] = -1;
        } else if (kind[1] >= 0) {
            kind[1] += now[VmCounters.SAFEPOINTS] - operation.counted[VmCounters.SAFEPOINTS];
            kind[2] += counters.nanos(now[VmCounters.SAFEPOINT_TICKS] - operation.counted[VmCounters.SAFEPOINT_TICKS]
                + now[VmCounters.SYNC_TICKS] - operation.counted[VmCounters.SYNC_TICKS]);
        }
    }

    /** @return what each kind of mech's calls stopped the JVM for, in the order first asked for */
    public synchronized List<Stop> stops() {
        final List<Stop> stops = new ArrayList<>();
        // a loop, not a lambda: the report asks at the host's exit, where a lambda's first call costs about half a millisecond
        for (final Map.Entry<String, long[]> entry : stopped.entrySet()) {
            final long[] kind = entry.getValue();
            stops.add(new Stop(entry.getKey(), kind[0], kind[1], kind[2]));
        }
        return stops;
    }

    /** The safepoint counters now, opened at the first call (a few calls a run); null where the JVM keeps none. */
    private long[] counted() {
        if (!countersOpened) {
            countersOpened = true;
            counters = VmCounters.open();
        }
        if (counters == null) {
            return null;
        }
        final long[] reading = new long[counters.width()];
        counters.read(reading, 0);
        return reading;
    }

    /**
     * How much of [start, end] (System.nanoTime()) mech's operations cover together, and the
     * operation that covers most of it.
     *
     * @param widest set to the name of the operation that covers most, when any does
     * @return the covered nanoseconds
     */
    synchronized long overlap(final long start, final long end, final String[] widest) {
        final List<long[]> spans = new ArrayList<>();
        long most = 0;
        for (final Operation operation : operations) {
            final long from = Math.max(start, operation.start);
            final long to = Math.min(end, operation.end);
            if (to > from) {
                spans.add(new long[] {from, to});
                if (to - from > most) {
                    most = to - from;
                    widest[0] = operation.name;
                }
            }
        }
        return Spans.union(spans, start);
    }
}
