package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.junit.jupiter.api.Test;

/** The one walk gives, to the bit, what HdrHistogram's own methods give walking once per figure. */
class HistogramWalkTest {

    private static final double[] QUANTILES = HiccupFamilies.QUANTILES;

    @Test
    void sumQuantilesAndBucketsAreHdrHistogramsOwn() {
        final Random random = new Random(34);
        for (int round = 0; round < 200; round++) {
            final Histogram nanos = new Histogram(86_400_000_000_000L, round % 2 == 0 ? 2 : 3);
            final int values = random.nextInt(round % 10 == 0 ? 3 : 2_000);
            for (int i = 0; i < values; i++) {
                // hiccups: mostly tens of microseconds, some milliseconds, a few stalls of seconds
                final double scale = random.nextInt(100) < 90 ? 50_000 : random.nextInt(10) < 9 ? 5_000_000 : 2_000_000_000;
                nanos.recordValueWithCount((long) (random.nextDouble() * scale), 1 + random.nextInt(5));
            }
            if (round % 7 == 0) {
                nanos.recordValueWithCount(0, 3);
            }
            assertAgrees(nanos, "round " + round);
        }
    }

    @Test
    void anEmptyHistogramWalksToZeros() {
        final HistogramWalk.Walked walked = HistogramWalk.walk(new Histogram(86_400_000_000_000L, 2), QUANTILES, false);
        assertEquals(0.0, walked.sumSeconds());
        assertArrayEquals(new double[QUANTILES.length], walked.quantileSeconds());
        assertEquals(0, walked.nativeBuckets().buckets().size());
        assertEquals(0, walked.nativeBuckets().zeroCount());
    }

    private static void assertAgrees(final Histogram nanos, final String what) {
        final HistogramWalk.Walked walkedNative = HistogramWalk.walk(nanos, QUANTILES, false);
        final HistogramWalk.Walked walkedClassic = HistogramWalk.walk(nanos, QUANTILES, true);
        final double sum = nanos.getTotalCount() == 0 ? 0 : nanos.getMean() * nanos.getTotalCount() / 1e9;
        assertEquals(sum, walkedNative.sumSeconds(), what + ": sum");
        assertEquals(sum, walkedClassic.sumSeconds(), what + ": sum");
        for (int q = 0; q < QUANTILES.length; q++) {
            final double expected = nanos.getValueAtPercentile(QUANTILES[q] * 100) / 1e9;
            assertEquals(expected, walkedNative.quantileSeconds()[q], what + ": quantile " + QUANTILES[q]);
            assertEquals(expected, walkedClassic.quantileSeconds()[q], what + ": quantile " + QUANTILES[q]);
        }
        final ClassicHistogramBuckets classic = walkedClassic.classicBuckets();
        long below = 0;
        for (int i = 0; i < classic.size(); i++) {
            final double bound = classic.getUpperBound(i);
            final long atOrBelow = Double.isInfinite(bound) ? nanos.getTotalCount() : nanos.getCountBetweenValues(0, (long) (bound * 1e9));
            assertEquals(atOrBelow - below, classic.getCount(i), what + ": classic bucket " + bound);
            below = atOrBelow;
        }
        final Map<Integer, Long> expected = new TreeMap<>();
        long zero = 0;
        for (final HistogramIterationValue v : nanos.recordedValues()) {
            final double seconds = nanos.medianEquivalentValue(v.getValueIteratedTo()) / 1e9;
            if (seconds == 0) {
                zero += v.getCountAtValueIteratedTo();
            } else {
                expected.merge(NativeBuckets.index(seconds), v.getCountAtValueIteratedTo(), Long::sum);
            }
        }
        final NativeHistogramBuckets buckets = walkedNative.nativeBuckets().buckets();
        final Map<Integer, Long> actual = new TreeMap<>();
        for (int i = 0; i < buckets.size(); i++) {
            actual.put(buckets.getBucketIndex(i), buckets.getCount(i));
        }
        assertEquals(expected, actual, what + ": native buckets");
        assertEquals(zero, walkedNative.nativeBuckets().zeroCount(), what + ": zero bucket");
    }
}
