package io.mech.bench;

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
     * lean one way beyond the 5% level, or when their median is within the bound anyway.
     *
     * @param p      the sign test's p-value of the samples, adjusted for the rows judged with this one
     * @param family how many rows were judged together
     */
    Row notMeasurable(final double p, final int family, final double bound) {
        return new Row(figure, config, unit, stats, "not measurable: sign test p = " + Table.number(p)
            + (family > 1 ? " (Holm-adjusted over " + family + " rows)" : "") + " needs >= 0.05, or median <= "
            + Table.number(bound), p >= 0.05 || stats.median() <= bound);
    }

    /** The same row with a strict upper bound on its median. */
    Row below(final double bound) {
        return new Row(figure, config, unit, stats, "< " + Table.number(bound), stats.median() < bound);
    }

    /** The same row with a lower bound on its median. */
    Row atLeast(final double bound) {
        return new Row(figure, config, unit, stats, ">= " + Table.number(bound), stats.median() >= bound);
    }
}
