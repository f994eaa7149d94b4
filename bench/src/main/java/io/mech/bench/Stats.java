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
