package io.mech.replay;

import java.util.ArrayList;
import java.util.List;

/** The intervals with the longest hiccups seen so far, longest first; ties keep the earlier one. */
final class WorstIntervals {

    /**
     * One of the worst intervals.
     *
     * @param source      the log it came from
     * @param startMillis its start, ms since the epoch
     * @param endMillis   its end, ms since the epoch
     * @param max         its longest hiccup, in the log's value unit
     * @param p99         its 99th percentile
     */
    record Entry(String source, long startMillis, long endMillis, long max, long p99) {
    }

    private final int limit;
    private final List<Entry> entries = new ArrayList<>();

    WorstIntervals(final int limit) {
        this.limit = limit;
    }

    /** Whether an interval with this max would be kept: lets callers skip computing its p99. */
    boolean wouldKeep(final long max) {
        return limit > 0 && (entries.size() < limit || max > entries.get(entries.size() - 1).max());
    }

    void offer(final Entry entry) {
        if (!wouldKeep(entry.max())) {
            return;
        }
        int at = entries.size();
        while (at > 0 && entries.get(at - 1).max() < entry.max()) {
            at--;
        }
        entries.add(at, entry);
        if (entries.size() > limit) {
            entries.remove(entries.size() - 1);
        }
    }

    List<Entry> entries() {
        return entries;
    }
}
