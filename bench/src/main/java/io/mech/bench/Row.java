package io.mech.bench;

import java.util.List;

/**
 * One line of the results table.
 *
 * @param figure what was measured
 * @param config under which mech configuration
 * @param unit   the unit of the numbers
 * @param stats  the samples' median and range
 * @param target the target, for instance {@code <= 150}, or empty
 * @param met    whether the median meets the target (ignored without one)
 */
record Row(String figure, String config, String unit, Stats stats, String target, boolean met) {

    static Row of(final String figure, final String config, final String unit, final Stats stats) {
        return new Row(figure, config, unit, stats, "", true);
    }

    /** The same row with an upper bound on its median. */
    Row atMost(final double bound) {
        return new Row(figure, config, unit, stats, "<= " + Table.number(bound), stats.median() <= bound);
    }

    /**
     * The same row judged "not measurable": met when the samples (losses, round by round) do not
     * lean one way beyond the sign test's 5% level, or when their median is within the bound anyway.
     */
    Row notMeasurable(final List<Double> samples, final double bound) {
        final double p = Stats.signTestP(samples);
        return new Row(figure, config, unit, stats, "not measurable: sign test p = " + Table.number(p)
            + " (needs >= 0.05), or median <= " + Table.number(bound), p >= 0.05 || stats.median() <= bound);
    }

    /** The same row with a lower bound on its median. */
    Row atLeast(final double bound) {
        return new Row(figure, config, unit, stats, ">= " + Table.number(bound), stats.median() >= bound);
    }
}
