package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import org.HdrHistogram.Histogram;

/**
 * Maps an HdrHistogram of nanoseconds onto fixed classic buckets of seconds, for Prometheus
 * servers without native histograms. The bounds span a healthy JVM's tens of microseconds to a
 * pathological ten-second stall, about three to a decade.
 */
final class ClassicBuckets {

    static final double[] UPPER_BOUNDS_SECONDS = {
        0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
        Double.POSITIVE_INFINITY};

    private ClassicBuckets() {
    }

    /** Per-bucket (not cumulative) counts, as client_java's snapshot takes them. */
    static ClassicHistogramBuckets map(final Histogram nanos) {
        final long[] counts = new long[UPPER_BOUNDS_SECONDS.length];
        long below = 0;
        for (int i = 0; i < UPPER_BOUNDS_SECONDS.length - 1; i++) {
            final long bound = (long) (UPPER_BOUNDS_SECONDS[i] * 1e9);
            final long atOrBelow = nanos.getCountBetweenValues(0, bound);
            counts[i] = atOrBelow - below;
            below = atOrBelow;
        }
        counts[counts.length - 1] = nanos.getTotalCount() - below;
        return ClassicHistogramBuckets.of(UPPER_BOUNDS_SECONDS, counts);
    }
}
