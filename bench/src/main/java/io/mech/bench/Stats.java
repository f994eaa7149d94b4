package io.mech.bench;

import java.util.Arrays;
import java.util.List;

/**
 * Median and range of one figure's samples.
 *
 * @param median the median sample
 * @param min    the smallest sample
 * @param max    the largest sample
 * @param n      the number of samples
 */
record Stats(double median, double min, double max, int n) {

    /**
     * The two-sided sign test: how likely as lopsided a split of positive and negative samples
     * is when each sign is a coin toss (zeros left out). A small value says the samples lean one
     * way beyond what the noise explains.
     *
     * @return the p-value, 1 when no sample is non-zero
     */
    static double signTestP(final List<Double> samples) {
        int positive = 0;
        int n = 0;
        for (final double sample : samples) {
            if (sample != 0) {
                n++;
                positive += sample > 0 ? 1 : 0;
            }
        }
        final int fewer = Math.min(positive, n - positive);
        double tail = 0;
        double choose = 1;
        for (int k = 0; k <= fewer; k++) {
            tail += choose;
            choose = choose * (n - k) / (k + 1);
        }
        return Math.min(1, 2 * tail / Math.pow(2, n));
    }

    /**
     * Holm's step-down adjustment of p-values tested together: with several rows judged at once,
     * one of them falls under 5% by chance far more often than 5% of the time (about a third of
     * the time for seven rows); the adjusted values keep that chance, for the whole family, at the
     * level they are compared with.
     *
     * @return the adjusted p-values, in the order given
     */
    static double[] holm(final double[] p) {
        final Integer[] order = new Integer[p.length];
        for (int i = 0; i < p.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(p[a], p[b]));
        final double[] adjusted = new double[p.length];
        double running = 0;
        for (int rank = 0; rank < p.length; rank++) {
            running = Math.max(running, Math.min(1, (p.length - rank) * p[order[rank]]));
            adjusted[order[rank]] = running;
        }
        return adjusted;
    }

    static Stats of(final List<Double> samples) {
        if (samples.isEmpty()) {
            throw new IllegalArgumentException("no samples");
        }
        final double[] sorted = samples.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        final int n = sorted.length;
        final double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Stats(median, sorted[0], sorted[n - 1], n);
    }
}
