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
