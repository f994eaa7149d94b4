package io.mech.hiccup.cause;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The VM operations mech itself asked for (redefining or retransforming classes to weave or
 * unweave a probe), timed by the thread that asked: the stall they cause is mech's own cost, from
 * the first one on, with or without JFR, under {@code -javaagent} and under {@code attach}.
 *
 * <p>An operation counts from its {@link #begin}: one call may retransform hundreds of classes and
 * return seconds after its safepoint, by when the stall is already attributed.
 *
 * <p>Thread contract: any thread records its operation with {@link #begin} and {@link #end};
 * the attributing thread reads {@link #overlap}. Every method holds this object's monitor, held
 * only for a few array operations; the operations kept are bounded.
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

        private Operation(final long start, final String name) {
            this.start = start;
            this.name = name;
        }
    }

    private final Deque<Operation> operations = new ArrayDeque<>();

    /**
     * Records that mech is about to ask the JVM for an operation.
     *
     * @param name what mech asks for, such as {@code RetransformClasses}
     * @return the operation, to hand to {@link #end} once the call returns
     */
    public synchronized Operation begin(final String name) {
        final Operation operation = new Operation(System.nanoTime(), name);
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
