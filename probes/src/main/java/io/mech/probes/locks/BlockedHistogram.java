package io.mech.probes.locks;

import java.util.Arrays;

/**
 * Blocked times in power-of-two buckets: bucket 0 holds times below 1,024 ns, bucket i (for
 * 1 &lt;= i &lt; 23) times in [2^(9+i), 2^(10+i)) ns, the last bucket everything from 2^32 ns
 * (about 4.3 s) up. Immutable.
 */
public final class BlockedHistogram {

    /** Number of buckets. */
    public static final int BUCKETS = AqsBridge.BUCKETS;

    private static final BlockedHistogram EMPTY = new BlockedHistogram(new long[BUCKETS]);

    private final long[] counts;

    private BlockedHistogram(final long[] counts) {
        this.counts = counts;
    }

    /** @return a histogram with these per-bucket (not cumulative) counts, copied */
    public static BlockedHistogram of(final long[] counts) {
        if (counts.length != BUCKETS) {
            throw new IllegalArgumentException("need " + BUCKETS + " bucket counts, got " + counts.length);
        }
        return new BlockedHistogram(counts.clone());
    }

    /** @return a histogram with no values */
    public static BlockedHistogram empty() {
        return EMPTY;
    }

    /** @return the bucket a blocked time falls into */
    public static int bucket(final long nanos) {
        final int b = 64 - Long.numberOfLeadingZeros(Math.max(0L, nanos) >>> 10);
        return Math.min(b, BUCKETS - 1);
    }

    /**
     * @param bucket a bucket index
     * @return the exclusive upper bound of the bucket in nanoseconds, Long.MAX_VALUE for the last
     */
    public static long upperBoundNanos(final int bucket) {
        return bucket >= BUCKETS - 1 ? Long.MAX_VALUE : 1024L << bucket;
    }

    /** @return the count in one bucket (not cumulative) */
    public long count(final int bucket) {
        return counts[bucket];
    }

    /** @return all per-bucket counts, a copy */
    public long[] counts() {
        return counts.clone();
    }

    /** @return the number of values */
    public long total() {
        long sum = 0;
        for (final long c : counts) {
            sum += c;
        }
        return sum;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof BlockedHistogram && Arrays.equals(counts, ((BlockedHistogram) other).counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return "BlockedHistogram" + Arrays.toString(counts);
    }
}
