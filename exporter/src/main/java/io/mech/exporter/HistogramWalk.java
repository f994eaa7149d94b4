package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * All a scrape shows of an HdrHistogram of nanoseconds, from one walk over its recorded values:
 * the sum, the quantiles, and the native or the classic buckets. HdrHistogram's
 * {@code getMean}, {@code getValueAtPercentile} and {@code getCountBetweenValues} walk the counts
 * once each, seven walks a distribution with native buckets and twenty-three with classic ones,
 * and a scrape makes them once per interval, too rarely for the JIT to compile them: a fresh
 * host's scrape paid about a tenth of its time for them. The walk gives the same figures, to the
 * bit, in one.
 */
final class HistogramWalk {

    /**
     * @param sumSeconds      the sum of the recorded values, in seconds, as {@code getMean() * getTotalCount() / 1e9}
     * @param quantileSeconds each quantile's value in seconds, as {@code getValueAtPercentile(100 * quantile) / 1e9}
     * @param nativeBuckets   the native buckets, or null when classic ones were asked for
     * @param classicBuckets  the classic buckets, or null when native ones were asked for
     */
    record Walked(double sumSeconds, double[] quantileSeconds, NativeBuckets.Mapped nativeBuckets,
                  ClassicHistogramBuckets classicBuckets) {
    }

    private HistogramWalk() {
    }

    /**
     * @param nanos     the histogram; only read, through an iterator of its own, so concurrent walks do not meet
     * @param quantiles the quantiles to give, in ascending order, each in (0, 1]
     * @param classic   true for classic buckets, else native ones
     */
    static Walked walk(final Histogram nanos, final double[] quantiles, final boolean classic) {
        final long total = nanos.getTotalCount();
        final long[] reaching = new long[quantiles.length];
        for (int q = 0; q < quantiles.length; q++) {
            reaching[q] = countAtPercentile(quantiles[q] * 100, total);
        }
        final double[] quantileSeconds = new double[quantiles.length];
        final NativeBuckets.Counts nativeCounts = classic ? null : new NativeBuckets.Counts();
        final ClassicBuckets.Counts classicCounts = classic ? new ClassicBuckets.Counts() : null;
        double totalValue = 0;
        int q = 0;
        for (final HistogramIterationValue recorded : nanos.recordedValues()) {
            final long value = recorded.getValueIteratedTo();
            final long count = recorded.getCountAtValueIteratedTo();
            final long median = nanos.medianEquivalentValue(value);
            totalValue += (double) median * (double) count;
            while (q < reaching.length && recorded.getTotalCountToThisValue() >= reaching[q]) {
                quantileSeconds[q++] = value / 1e9;
            }
            if (classic) {
                classicCounts.add(nanos.lowestEquivalentValue(value), count);
            } else {
                nativeCounts.add(median, count);
            }
        }
        final double sum = total == 0 ? 0 : totalValue / total * total / 1e9;
        return new Walked(sum, quantileSeconds, classic ? null : nativeCounts.mapped(), classic ? classicCounts.buckets() : null);
    }

    /** How many values reach a percentile, as HdrHistogram's {@code getValueAtPercentile} reckons it. */
    private static long countAtPercentile(final double percentile, final long total) {
        final double requested = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0), 100.0);
        return Math.max((long) Math.ceil(requested * total / 100.0), 1);
    }
}
