package io.mech.hiccup.cause;

import java.util.List;

/** Time covered by spans that may overlap: what the attribution measures every cause's windows with. */
final class Spans {

    private Spans() {
    }

    /**
     * How long the union of the spans is, counted from {@code start} on.
     *
     * @param spans [from, to] pairs, in any order; sorted in place
     * @param start nothing before it counts
     */
    static long union(final List<long[]> spans, final long start) {
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
