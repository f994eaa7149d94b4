package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class NativeBucketsTest {

    @Test
    void powersOfTwoCloseTheirBucket() {
        assertEquals(0, NativeBuckets.index(1.0));
        assertEquals(8, NativeBuckets.index(2.0));
        assertEquals(-8, NativeBuckets.index(0.5));
        assertEquals(-80, NativeBuckets.index(Math.scalb(1.0, -10)));
    }

    @Test
    void everyValueLiesInsideItsBucket() {
        final double base = Math.pow(2, 1.0 / 8);
        for (double v = 1e-7; v < 100; v *= 1.013) {
            final int i = NativeBuckets.index(v);
            assertTrue(v <= Math.pow(base, i) * (1 + 1e-12) && v > Math.pow(base, i - 1) * (1 - 1e-12), v + " in bucket " + i);
        }
    }

    @Test
    void mappingKeepsEveryCount() {
        final Histogram nanos = new Histogram(86_400_000_000_000L, 2);
        nanos.recordValueWithCount(0, 7);
        nanos.recordValueWithCount(70_000, 900);
        nanos.recordValueWithCount(1_000_000, 50);
        nanos.recordValueWithExpectedInterval(300_000_000, 1_000_000);
        final NativeBuckets.Mapped mapped = HistogramWalk.walk(nanos, new double[0], false).nativeBuckets();
        long total = mapped.zeroCount();
        final NativeHistogramBuckets buckets = mapped.buckets();
        for (int i = 0; i < buckets.size(); i++) {
            total += buckets.getCount(i);
        }
        assertEquals(7, mapped.zeroCount());
        assertEquals(nanos.getTotalCount(), total);
        assertEquals(NativeBuckets.index(0.3), buckets.getBucketIndex(buckets.size() - 1), "the stall's bucket is the last");
    }
}
