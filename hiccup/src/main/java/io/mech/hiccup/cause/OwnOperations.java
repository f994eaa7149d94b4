package io.mech.hiccup.cause;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The VM operations mech itself asked for (redefining or retransforming classes to weave or
 * unweave a probe, redefining a module), timed by the thread that asked: the stall they cause is
 * mech's own cost, from the first one on, with or without JFR, under {@code -javaagent} and under
 * {@code attach}.
 *
 * <p>Thread contract: any thread records its operation with {@link #begin} and {@link #end};
 * the attributing thread reads {@link #overlap}. Every method holds this object's monitor, held
 * only for a few array operations; the windows kept are bounded.
 */
public final class OwnOperations {

    /** Windows older than this are of no use: stalls are attributed within seconds. */
    private static final long KEEP_NANOS = 60_000_000_000L;
    private static final int MAX_WINDOWS = 1024;

    /** [start, end] in System.nanoTime(), and what the operation was. */
    private record Window(long start, long end, String operation) {
    }

    private final Deque<Window> windows = new ArrayDeque<>();

    /** @return the time to hand to {@link #end}: System.nanoTime() now */
    public long begin() {
        return System.nanoTime();
    }

    /**
     * Records an operation that began at {@code began} and has just returned.
     *
     * @param began     what {@link #begin} returned
     * @param operation what mech asked for, such as {@code RetransformClasses}
     */
    public synchronized void end(final long began, final String operation) {
        final long now = System.nanoTime();
        windows.addLast(new Window(began, now, operation));
        while (windows.size() > MAX_WINDOWS || windows.peekFirst().end() < now - KEEP_NANOS) {
            windows.removeFirst();
        }
    }

    /**
     * How much of [start, end] (System.nanoTime()) mech's operations cover together, and the
     * operation that covers most of it.
     *
     * @return the covered nanoseconds; {@code widest[0]} is set to the operation that covers most, when any does
     */
    synchronized long overlap(final long start, final long end, final String[] widest) {
        final List<long[]> spans = new ArrayList<>();
        long most = 0;
        for (final Window w : windows) {
            final long from = Math.max(start, w.start());
            final long to = Math.min(end, w.end());
            if (to > from) {
                spans.add(new long[] {from, to});
                if (to - from > most) {
                    most = to - from;
                    widest[0] = w.operation();
                }
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
}
