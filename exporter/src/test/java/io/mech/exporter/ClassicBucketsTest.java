package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class ClassicBucketsTest {

    @Test
    void countsLandInTheirBucketsAndAddUp() {
        final Histogram nanos = new Histogram(86_400_000_000_000L, 2);
        nanos.recordValueWithCount(20_000, 5);
        nanos.recordValueWithCount(3_000_000, 2);
        nanos.recordValue(20_000_000_000L);
        final ClassicHistogramBuckets buckets = HistogramWalk.walk(nanos, new double[0], true).classicBuckets();
        long total = 0;
        for (int i = 0; i < buckets.size(); i++) {
            total += buckets.getCount(i);
            if (buckets.getUpperBound(i) == 0.00005) {
                assertEquals(5, buckets.getCount(i));
            } else if (buckets.getUpperBound(i) == 0.005) {
                assertEquals(2, buckets.getCount(i));
            } else if (Double.isInfinite(buckets.getUpperBound(i))) {
                assertEquals(1, buckets.getCount(i));
            } else {
                assertEquals(0, buckets.getCount(i), "bucket " + buckets.getUpperBound(i));
            }
        }
        assertEquals(8, total);
    }
}
