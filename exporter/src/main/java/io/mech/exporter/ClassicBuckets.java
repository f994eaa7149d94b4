package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;

/**
 * Maps an HdrHistogram of nanoseconds onto fixed classic buckets of seconds, for Prometheus
 * servers without native histograms. The bounds span a healthy JVM's tens of microseconds to a
 * pathological ten-second stall, about three to a decade.
 */
final class ClassicBuckets {

    static final double[] UPPER_BOUNDS_SECONDS = {
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
        Double.POSITIVE_INFINITY};
    /** The finite bounds in nanoseconds. */
    private static final long[] BOUNDS_NANOS = boundsNanos();

    private ClassicBuckets() {
    }

    /**
     * Counts an HdrHistogram's recorded values into the classic buckets, fed in ascending order as
     * its iterator gives them ({@link HistogramWalk}). A value goes where HdrHistogram's
     * {@code getCountBetweenValues(0, bound)} counts it: under the first bound no smaller than the
     * lowest value equivalent to it.
     *
     * <p>Used by one walk, on one thread.
     */
    static final class Counts {

        /** Per-bucket (not cumulative) counts, as client_java's snapshot takes them. */
        private final long[] counts = new long[UPPER_BOUNDS_SECONDS.length];
        private int bucket;

        /**
         * @param lowestNanos the lowest value equivalent to a recorded one, no smaller than the last one added
         * @param count       how many times it was recorded
         */
        void add(final long lowestNanos, final long count) {
            while (bucket < BOUNDS_NANOS.length && lowestNanos > BOUNDS_NANOS[bucket]) {
                bucket++;
            }
            counts[bucket] += count;
        }

        /** @return the buckets of every value added */
        ClassicHistogramBuckets buckets() {
            return ClassicHistogramBuckets.of(UPPER_BOUNDS_SECONDS, counts);
        }
    }

    private static long[] boundsNanos() {
        final long[] nanos = new long[UPPER_BOUNDS_SECONDS.length - 1];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = (long) (UPPER_BOUNDS_SECONDS[i] * 1e9);
        }
        return nanos;
    }
}
