package io.mech.replay;

import java.util.Arrays;
import java.util.BitSet;

/**
 * One log's stalls by cause, for the OpenMetrics export: each stalled cause line's longest stall,
 * in the log's order, and which causes the log has lines of. As in replay's cause table, a line
 * counts as one stall of its longest stall's length: the line's other values are that stall's
 * coordinated-omission fill-ins or a second stall hidden behind it, so the sums are lower bounds.
 * Memory in proportion to the stalled lines, not to the log's length. Causes are
 * {@link StallCauses#tagIndex} indices. Used by the replaying thread alone.
 */
final class CauseCounts {

    private static final int FIELDS = 3;

    private final BitSet seen = new BitSet();
    /** endMillis, cause and the longest stall in ns, for each stalled line. */
    private long[] lines = new long[FIELDS * 64];
    private int size;

    /** Notes that the log has lines of the cause. */
    void seen(final int cause) {
        seen.set(cause);
    }

    /** Adds a stalled line of the cause: its interval's end and its longest stall. */
    void add(final int cause, final long endMillis, final long longestNanos) {
        seen.set(cause);
        if (FIELDS * (size + 1) > lines.length) {
            lines = Arrays.copyOf(lines, lines.length * 2);
        }
        final int at = FIELDS * size++;
        lines[at] = endMillis;
        lines[at + 1] = cause;
        lines[at + 2] = longestNanos;
    }

    /** @return the causes the log has lines of */
    BitSet causes() {
        return (BitSet) seen.clone();
    }

    int size() {
        return size;
    }

    long endMillis(final int line) {
        return lines[FIELDS * line];
    }

    int cause(final int line) {
        return (int) lines[FIELDS * line + 1];
    }

    long longestNanos(final int line) {
        return lines[FIELDS * line + 2];
    }
}
