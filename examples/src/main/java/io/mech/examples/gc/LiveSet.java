package io.mech.examples.gc;

import java.util.SplittableRandom;

/**
 * A large array of small records that churn replaces at random. Every replacement survives
 * the next young collection (the array still references it), so each young pause copies
 * freshly promoted data and the old generation fills with holes: pauses grow with the live set.
 *
 * <p>Not thread safe: one thread owns it.
 */
public final class LiveSet {
    /** Longs per record: with the array header a record takes 64 bytes. */
    static final int RECORD_LONGS = 6;
    static final int RECORD_BYTES = 64;

    private final long[][] records;
    private final SplittableRandom random = new SplittableRandom(42);
    private long sum;
    private long next;

    /** @param bytes approximate live bytes to hold */
    public LiveSet(final long bytes) {
        final int count = (int) Math.max(1, bytes / RECORD_BYTES);
        records = new long[count][];
        for (int i = 0; i < count; i++) {
            records[i] = record();
        }
    }

    private long[] record() {
        final long[] record = new long[RECORD_LONGS];
        record[0] = ++next;
        sum += next;
        return record;
    }

    /**
     * Replaces {@code times} records chosen at random, each with a freshly allocated one.
     *
     * @param times records to replace
     */
    public void churn(final int times) {
        final long[][] local = records;
        for (int i = 0; i < times; i++) {
            final int slot = random.nextInt(local.length);
            sum -= local[slot][0];
            local[slot] = record();
        }
    }

    /** @return the sum of all record keys as tracked incrementally */
    public long trackedSum() {
        return sum;
    }

    /** @return the sum of all record keys, recomputed from the records */
    public long recomputedSum() {
        long total = 0;
        for (final long[] record : records) {
            total += record[0];
        }
        return total;
    }

    /** @return records held */
    public int size() {
        return records.length;
    }
}
