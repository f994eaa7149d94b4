package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;

/**
 * Maps an HdrHistogram of nanoseconds onto Prometheus native (exponential) buckets of seconds.
 *
 * <p>At schema {@code s} the base is {@code 2^(2^-s)} and bucket {@code i} covers
 * {@code (base^(i-1), base^i]}. The index is computed from the value's binary exponent and
 * mantissa rather than from a logarithm, which misplaces exact powers of two. Each HdrHistogram
 * bucket is placed by its median equivalent value; values of zero go to the zero bucket.
 */
final class NativeBuckets {

    /** Eight buckets per doubling, a width of 9%: coarser than the HdrHistogram, fine for dashboards. */
    static final int SCHEMA = 3;

    /** Only exact zeros fall in the zero bucket. */
    static final double ZERO_THRESHOLD = Math.scalb(1.0, -128);

    private static final double[] BOUNDS = bounds(SCHEMA);

    /** Counts per native bucket index, and the zero bucket's count. */
    record Mapped(NativeHistogramBuckets buckets, long zeroCount) {
    }

    private NativeBuckets() {
    }

    private static double[] bounds(final int schema) {
        final int perDoubling = 1 << schema;
        final double[] bounds = new double[perDoubling + 1];
        for (int k = 0; k <= perDoubling; k++) {
            bounds[k] = Math.pow(2, (double) k / perDoubling);
        }
        return bounds;
    }

    /**
     * Counts an HdrHistogram's recorded values into native buckets, fed in ascending order as its
     * iterator gives them ({@link HistogramWalk}): each goes to the bucket of its median
     * equivalent value, so that equal indices come together and need no map.
     *
     * <p>Used by one walk, on one thread.
     */
    static final class Counts {

        private final NativeHistogramBuckets.Builder buckets = NativeHistogramBuckets.builder();
        private long zero;
        private int index;
        private long atIndex;

        /**
         * @param medianNanos a recorded value's median equivalent value, no smaller than the last one added
         * @param count       how many times it was recorded
         */
        void add(final long medianNanos, final long count) {
            final double seconds = medianNanos / 1e9;
            if (medianNanos == 0 || seconds <= ZERO_THRESHOLD) {
                zero += count;
                return;
            }
            final int i = index(seconds);
            if (atIndex > 0 && i != index) {
                buckets.bucket(index, atIndex);
                atIndex = 0;
            }
            index = i;
            atIndex += count;
        }

        /** @return the buckets and the zero bucket's count, of every value added */
        Mapped mapped() {
            if (atIndex > 0) {
                buckets.bucket(index, atIndex);
                atIndex = 0;
            }
            return new Mapped(buckets.build(), zero);
        }
    }

    /** The index of the bucket holding a positive value at {@link #SCHEMA}. */
    static int index(final double value) {
        final int exponent = Math.getExponent(value);
        final double mantissa = value / Math.scalb(1.0, exponent);
        final int perDoubling = 1 << SCHEMA;
        int k = 0;
        while (mantissa > BOUNDS[k]) {
            k++;
        }
        return exponent * perDoubling + k;
    }
}
