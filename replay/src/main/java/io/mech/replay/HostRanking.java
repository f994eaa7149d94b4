package io.mech.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The hosts of a fleet ranked by p99, then by max, worst first. Reports for people show the
 * {@link #SHOWN} worst and the {@link #SHOWN} best, not a thousand rows; machine formats list all.
 */
final class HostRanking {

    /** How many of the worst, and of the best, hosts a report for people shows. */
    static final int SHOWN = 10;

    /**
     * One host's place.
     *
     * @param rank 1 for the worst
     * @param view its figures
     * @param p99  its 99th percentile
     * @param max  its longest hiccup
     */
    record Host(int rank, View view, long p99, long max) {
    }

    private HostRanking() {
    }

    /** Every host, worst first; ties keep command-line order. */
    static List<Host> rank(final List<View> views) {
        final List<Host> unranked = new ArrayList<>(views.size());
        for (final View view : views) {
            unranked.add(new Host(0, view, view.total().getValueAtPercentile(99.0), view.total().getMaxValue()));
        }
        unranked.sort(Comparator.comparingLong(Host::p99).thenComparingLong(Host::max).reversed());
        final List<Host> ranked = new ArrayList<>(unranked.size());
        for (int i = 0; i < unranked.size(); i++) {
            final Host h = unranked.get(i);
            ranked.add(new Host(i + 1, h.view(), h.p99(), h.max()));
        }
        return ranked;
    }

    /** The worst and the best {@link #SHOWN}, or all when there are not more than twice as many. */
    static List<Host> shown(final List<Host> ranked) {
        if (ranked.size() <= 2 * SHOWN) {
            return ranked;
        }
        final List<Host> shown = new ArrayList<>(ranked.subList(0, SHOWN));
        shown.addAll(ranked.subList(ranked.size() - SHOWN, ranked.size()));
        return shown;
    }
}
