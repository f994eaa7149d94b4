package io.mech.probes.falsesharing;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The addresses a window sampled, by the collections between them. After each burst mech's
 * thread moves the samples out of {@link Tally}'s rings and clears them, tagging each with the
 * span between two garbage collections it was taken in: a moving collection would otherwise set
 * one thread's recent addresses of an object beside another thread's old ones, on lines the
 * object no longer holds, and the line they shared would go unseen. Two samples are compared only
 * within one span (bursts with no collection between them); a burst during which a collection ran
 * is a span of its own. The tag, added to an address, puts samples of different spans lines apart;
 * what a thread wrote is its own whatever the span ({@link #untagged}).
 *
 * <p>Used by mech's false-sharing thread only.
 */
final class Samples {

    /** Where a span's tag starts: above any address modulo the heap base. */
    static final int TAG_SHIFT = 48;
    private static final long TAG_MASK = -1L << TAG_SHIFT;

    private final Map<Integer, List<Long>> byStripeAndField = new HashMap<>();
    /** The span of each collection count seen at both ends of a burst. */
    private final Map<Long, Long> spans = new HashMap<>();
    private long nextSpan;

    /**
     * Moves a burst's samples out of the live cells and clears the rings; called with counting off,
     * so that only an access that began just before it ended can still write a ring (it then
     * counts in the next burst).
     *
     * @param cells    {@link Tally#cells()}
     * @param gcBefore the collections the JVM had run when the burst began
     * @param gcAfter  the collections the JVM had run when it ended
     */
    void take(final long[] cells, final long gcBefore, final long gcAfter) {
        final long span = gcBefore == gcAfter ? spans.computeIfAbsent(gcBefore, gc -> nextSpan++) : nextSpan++;
        read(cells, span, true);
    }

    /** @return how many collections the JVM has run, all collectors together */
    static long collections() {
        long count = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
        }
        return count;
    }

    /**
     * The samples of cells as one burst, the cells left as they are: for cells made by hand.
     *
     * @param cells a copy of {@link Tally#cells()}
     * @return their samples
     */
    static Samples of(final long[] cells) {
        final Samples samples = new Samples();
        samples.read(cells, 0, false);
        return samples;
    }

    private void read(final long[] cells, final long span, final boolean clear) {
        final long tag = span << TAG_SHIFT;
        for (int stripe = 0; stripe < Tally.STRIPES; stripe++) {
            for (int field = 1; field < Tally.FIELDS; field++) {
                final int ring = Tally.index(stripe, field) + Tally.RING;
                for (int k = 0; k < 2 * Tally.RING_SIZE; k++) {
                    final long sample = cells[ring + k];
                    if (sample != 0) {
                        byStripeAndField.computeIfAbsent(stripe * Tally.FIELDS + field, key -> new ArrayList<>()).add(sample | tag);
                        if (clear) {
                            cells[ring + k] = 0;
                        }
                    }
                }
            }
        }
    }

    /**
     * @param stripe a thread stripe
     * @param field  a field id
     * @return the stripe's samples of the field, each an address with the write mark and its span's tag
     */
    List<Long> of(final int stripe, final int field) {
        return byStripeAndField.getOrDefault(stripe * Tally.FIELDS + field, List.of());
    }

    /**
     * @param at where an access landed, from {@link #at}
     * @return the location without its span: the same for every span, for what a thread wrote at
     *         any time in the window
     */
    static long untagged(final long at) {
        return at & ~TAG_MASK;
    }

    /**
     * @param sample a sample from {@link #of(int, int)}
     * @param offset the field's offset in its object
     * @return where the access landed, lines away from any other span's accesses
     */
    static long at(final long sample, final long offset) {
        return (sample & ~TAG_MASK & ~Tally.WRITE_MARK) + offset + (sample & TAG_MASK);
    }
}
