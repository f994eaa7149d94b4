package io.mech.examples.memory;

/**
 * Walks a 64 MiB array of longs in one of three orders, summing what it reads. Element {@code i}
 * holds {@code i * MULTIPLIER}, so the sum of values read must equal {@code MULTIPLIER} times the
 * sum of indices visited: a check that holds at any point of a walk, not only after a full pass.
 * The random orders come from full-period linear congruential generators, so a pass visits every
 * element exactly once and a random walk costs no more arithmetic than a linear one needs.
 *
 * <p>Not thread safe: one thread walks one instance.
 */
public final class AccessPattern {
    /** Elements: 8 Mi longs, 64 MiB, larger than the last-level cache of the machines we run on. */
    static final int ELEMENTS = 1 << 23;
    static final long MULTIPLIER = 0x9E3779B97F4A7C15L;
    /** Longs per 4 KiB page. */
    static final int PAGE_ELEMENTS = 512;
    private static final long LCG_A = 6364136223846793005L;
    private static final long LCG_C = 1442695040888963407L;

    /** The three orders. */
    public enum Order {
        /** Index after index: the prefetcher's best case. */
        LINEAR,
        /** Pages in order, elements within each 4 KiB page in random order: TLB-friendly, cache-hostile. */
        RANDOM_IN_PAGE,
        /** Random over the whole array: a cache and TLB miss nearly every time. */
        RANDOM_IN_HEAP
    }

    private final long[] data = new long[ELEMENTS];
    private final Order order;
    private long step;
    private long lcg;
    private long valueSum;
    private long indexSum;

    /** @param order the walk order */
    public AccessPattern(final Order order) {
        this.order = order;
        for (int i = 0; i < ELEMENTS; i++) {
            data[i] = i * MULTIPLIER;
        }
    }

    /**
     * Reads the next {@code count} elements of the walk.
     *
     * @param count elements to read
     */
    public void walk(final int count) {
        switch (order) {
            case LINEAR:
                linear(count);
                break;
            case RANDOM_IN_PAGE:
                randomInPage(count);
                break;
            default:
                randomInHeap(count);
                break;
        }
    }

    private void linear(final int count) {
        final long[] local = data;
        long s = step;
        long values = 0;
        long indices = 0;
        for (int i = 0; i < count; i++) {
            final int index = (int) (s++ & (ELEMENTS - 1));
            values += local[index];
            indices += index;
        }
        finish(s, values, indices);
    }

    private void randomInPage(final int count) {
        final long[] local = data;
        long s = step;
        long x = lcg;
        long values = 0;
        long indices = 0;
        for (int i = 0; i < count; i++) {
            x = x * LCG_A + LCG_C;
            final long page = (s++ / PAGE_ELEMENTS) & (ELEMENTS / PAGE_ELEMENTS - 1);
            final int index = (int) (page * PAGE_ELEMENTS + (x & (PAGE_ELEMENTS - 1)));
            values += local[index];
            indices += index;
        }
        lcg = x;
        finish(s, values, indices);
    }

    private void randomInHeap(final int count) {
        final long[] local = data;
        long x = lcg;
        long values = 0;
        long indices = 0;
        for (int i = 0; i < count; i++) {
            x = x * LCG_A + LCG_C;
            final int index = (int) (x & (ELEMENTS - 1));
            values += local[index];
            indices += index;
        }
        lcg = x;
        finish(step + count, values, indices);
    }

    private void finish(final long newStep, final long values, final long indices) {
        step = newStep;
        valueSum += values;
        indexSum += indices;
    }

    /** @return elements read so far */
    public long reads() {
        return step;
    }

    /** @return the sum of values read, modulo 2^64 */
    public long valueSum() {
        return valueSum;
    }

    /** @return what {@link #valueSum()} must be, given the indices visited */
    public long expectedValueSum() {
        return indexSum * MULTIPLIER;
    }
}
