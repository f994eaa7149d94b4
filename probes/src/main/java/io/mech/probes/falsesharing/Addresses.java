package io.mech.probes.falsesharing;

/**
 * Where an object is in memory now, as far as cache lines go: the address modulo the heap base,
 * which is page aligned, so lines and distances come out right. The reference is stored in a
 * holder slot and read back raw; a compressed reference is widened by the shift the JVM chose,
 * found once by comparing two objects allocated one after the other.
 *
 * <p>Guarantees: each stripe has its own holder, the used slot 128 bytes from either end, so
 * threads of different stripes never write one line. A moving GC may make an address stale; the
 * probe keeps only recent ones.
 */
final class Addresses {

    /** Slots per holder; the one used is in the middle, 16 references from either end. */
    private static final int HOLDER = 33;
    private static final int USED = 16;

    private final InternalUnsafe unsafe;
    private final Object[][] holders;
    private final long usedSlot;
    private final int shift;

    Addresses(final InternalUnsafe unsafe, final int stripes) {
        this.unsafe = unsafe;
        this.holders = new Object[stripes][];
        for (int s = 0; s < stripes; s++) {
            holders[s] = new Object[HOLDER];
        }
        this.usedSlot = unsafe.slot(USED);
        this.shift = unsafe.compressed() ? shift(unsafe, holders[0], usedSlot) : 0;
    }

    /**
     * Compressed references are byte addresses (unscaled) or addresses divided by the object
     * alignment. Two small objects allocated back to back differ by 8 bytes or more when unscaled,
     * by a few units when scaled.
     */
    private static int shift(final InternalUnsafe unsafe, final Object[] holder, final long slot) {
        long smallest = Long.MAX_VALUE;
        for (int i = 0; i < 16; i++) {
            final Object a = new Object();
            final Object b = new Object();
            holder[USED] = a;
            final long ra = unsafe.rawSlot(holder, slot);
            holder[USED] = b;
            final long rb = unsafe.rawSlot(holder, slot);
            if (rb > ra) {
                smallest = Math.min(smallest, rb - ra);
            }
        }
        holder[USED] = null;
        return smallest < 8 ? Long.numberOfTrailingZeros(objectAlignment()) : 0;
    }

    /** @return the object alignment the JVM runs with, 8 unless -XX:ObjectAlignmentInBytes says */
    static long objectAlignment() {
        try {
            final com.sun.management.HotSpotDiagnosticMXBean bean = java.lang.management.ManagementFactory
                .getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
            return Long.parseLong(bean.getVMOption("ObjectAlignmentInBytes").getValue());
        } catch (final RuntimeException e) {
            return 8;
        }
    }

    /**
     * @param target an object
     * @param stripe the caller's stripe, whose holder it may use
     * @return the object's address modulo the heap base
     */
    long of(final Object target, final int stripe) {
        final Object[] holder = holders[stripe];
        holder[USED] = target;
        final long raw = unsafe.rawSlot(holder, usedSlot);
        holder[USED] = null;
        return raw << shift;
    }
}
