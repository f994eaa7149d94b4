package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

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

    static Mapped map(final Histogram nanos) {
        final Map<Integer, Long> counts = new TreeMap<>();
        long zero = 0;
        for (final HistogramIterationValue v : nanos.recordedValues()) {
            final double seconds = nanos.medianEquivalentValue(v.getValueIteratedTo()) / 1e9;
            if (v.getValueIteratedTo() == 0 || seconds <= ZERO_THRESHOLD) {
                zero += v.getCountAtValueIteratedTo();
            } else {
                counts.merge(index(seconds), v.getCountAtValueIteratedTo(), Long::sum);
            }
        }
        final NativeHistogramBuckets.Builder buckets = NativeHistogramBuckets.builder();
        counts.forEach(buckets::bucket);
        return new Mapped(buckets.build(), zero);
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
