package corpus.shapes;

/**
 * The shape of issue 33, part 4: a plain {@code long[]} whose slots 0 to 3 are four threads'
 * counters, side by side (3.1x slower for its user than slots 16 apart), and its twin with the
 * slots {@link #STRIDE} longs apart.
 */
public final class PlainArraySlots {

    /** 16 longs, 128 bytes: no two threads' slots share a line or a prefetched pair. */
    static final int STRIDE = 16;

    /** Four threads' counters, side by side. */
    final long[] adjacent = new long[4];
    /** The twin: the same counters {@link #STRIDE} apart. */
    final long[] strided = new long[4 * STRIDE];
}
