package io.mech.probes.falsesharing;

import java.lang.invoke.CallSite;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;
import java.lang.invoke.VarHandle;

/**
 * The counting woven code calls during a window: per thread stripe and field, how many writes
 * and reads, and a few recent addresses of what was touched; per thread stripe and array slot
 * (array identity, kind and index), how many writes and reads.
 *
 * <p>Guarantees: {@link #write} and {@link #read} allocate nothing, take no lock and look up no
 * ThreadLocal. A thread writes only the stripe its id selects, and stripes are 128 bytes apart,
 * so threads whose ids differ modulo {@value #STRIPES} share no written line: a shared counter
 * here would itself create the sharing being measured. Threads whose ids collide may lose an
 * increment. One access in a few hundred (jittered, so a loop over a power-of-two array does not
 * always land on the same element) takes the sample path, which records the target's address.
 * Written and read addresses are kept apart, so that rare writes among many reads stay visible.
 * Readers see plain longs, possibly a little stale. Array slots go to a small open-addressed
 * table per stripe, keyed by the array's identity hash and the index: an access that finds its
 * stripe's table full is only counted as lost, and two arrays whose identity hashes are equal are
 * counted as one. The counters are allocated when a window opens ({@link #sampleWith}), not
 * when woven code first runs. While the sites are linked, each stripe also keeps how many locks
 * its thread holds ({@link #held}, {@link #released}), so that what it writes holding one counts
 * as guarded; mech's thread clears those counts when it links the sites, and moves the sampled
 * addresses out after each burst ({@link Samples}), both while no host thread counts.
 *
 * <p>Counting is on only in short bursts ({@link #count}). Between them a woven
 * {@code invokedynamic} links to a call site whose target does nothing, which the JIT compiles to
 * nothing; around a burst it links to the counting methods, which check a flag that is never
 * written on the host's threads (as the direct calls of older class files always do).
 */
public final class Tally {

    /** Stripes, a power of two; a thread's stripe is its id modulo this. */
    static final int STRIPES = 64;
    /** Field ids a window can tell apart; id 0 is the stripe's header (its last thread id, the locks it holds). */
    static final int FIELDS = 256;
    /** Longs per field and stripe: writes, reads, countdown, random state, ring positions, write ring, read ring, guarded writes. */
    static final int SLOTS = 32;
    static final int WRITES = 0;
    static final int READS = 1;
    private static final int COUNTDOWN = 2;
    private static final int RANDOM = 3;
    private static final int RING_POSITION = 4;
    /** The ring of written addresses; the ring of read ones follows it. */
    static final int RING = 6;
    /** Addresses kept per field, stripe and kind of access (a few, for a moving GC makes old ones stale). */
    static final int RING_SIZE = 12;
    /** 128 bytes of longs before the first stripe and after each. */
    static final int PAD = 16;
    static final int STRIDE = FIELDS * SLOTS + PAD;
    /** Writes made holding a monitor or a java.util.concurrent lock: lock contention, not true sharing. */
    static final int GUARDED = 30;
    /** In a stripe's header: how many locks its thread holds, as woven lock and unlock calls told. */
    static final int HELD = 1;
    /** Marks a sampled address as a write (addresses are 8-byte aligned). */
    static final long WRITE_MARK = 1;

    private static final long SAMPLE_MIN = 128;
    private static final long SAMPLE_JITTER = 511;

    /** Array slots each stripe tells apart, a power of two. */
    static final int SLOT_ENTRIES = 64;
    private static final int SLOT_SHIFT = Long.SIZE - Integer.numberOfTrailingZeros(SLOT_ENTRIES);
    /** Entries an access tries before it is lost. */
    private static final int SLOT_PROBES = 8;
    /** Longs per slot entry: key (identity hash and kind), index, writes, reads, guarded writes, site, unused. */
    static final int SLOT_LONGS = 8;
    static final int SLOT_KEY = 0;
    static final int SLOT_INDEX = 1;
    static final int SLOT_WRITES = 2;
    static final int SLOT_READS = 3;
    static final int SLOT_GUARDED = 4;
    /** The {@link ArraySites} id of the plain array instruction that first met the slot, 0 for an atomic array or a VarHandle. */
    static final int SLOT_SITE = 5;
    /** A stripe's slot header: its last thread id, then its lost accesses. */
    static final int SLOT_HEADER = 8;
    static final int SLOT_LOST = 1;
    /** A stripe's header and entries, then 128 bytes before the next stripe's. */
    static final int SLOT_STRIDE = SLOT_HEADER + SLOT_ENTRIES * SLOT_LONGS + PAD;

    /** The counters, allocated on first use: 4 MB a run that never opens a window does without. */
    private static final class Counts {
        static final long[] CELLS = new long[PAD + STRIPES * STRIDE];
        static final long[] SLOTS = new long[PAD + STRIPES * SLOT_STRIDE];
    }

    private static volatile Addresses addresses;
    @SuppressWarnings("unused") // read and written through COUNTING only
    private static boolean counting;
    private static final VarHandle COUNTING;
    /** The methods {@link #SWITCHED} links to: write, guarded write, read, the same of array slots, then the locks held. */
    private static final MethodHandle[] COUNTERS;
    /** The woven names of the call sites, in {@link #SWITCHED}'s order. */
    private static final String[] KINDS = {"write", "guardedWrite", "read", "slotWrite", "slotGuardedWrite", "slotRead",
        "held", "heldIf", "released"};
    private static final MethodType FIELD = MethodType.methodType(void.class, Object.class, int.class);
    private static final MethodType SLOT = MethodType.methodType(void.class, Object.class, int.class, int.class);
    private static final MethodType LOCK = MethodType.methodType(void.class);
    /** One call site per kind of access, shared by every woven site of that kind; each does nothing until linked. */
    private static final MutableCallSite[] SWITCHED = {new MutableCallSite(FIELD), new MutableCallSite(FIELD),
        new MutableCallSite(FIELD), new MutableCallSite(SLOT), new MutableCallSite(SLOT), new MutableCallSite(SLOT),
        new MutableCallSite(LOCK), new MutableCallSite(MethodType.methodType(void.class, boolean.class)), new MutableCallSite(LOCK)};

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            COUNTING = lookup.findStaticVarHandle(Tally.class, "counting", boolean.class);
            COUNTERS = new MethodHandle[KINDS.length];
            for (int kind = 0; kind < KINDS.length; kind++) {
                COUNTERS[kind] = lookup.findStatic(Tally.class, KINDS[kind], SWITCHED[kind].type());
                SWITCHED[kind].setTarget(MethodHandles.empty(SWITCHED[kind].type()));
            }
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Tally() {
    }

    /**
     * Links a woven {@code invokedynamic} to the shared call site of its kind, whose target is
     * {@link #write}, {@link #guardedWrite} or {@link #read} around a burst and a no-op between
     * bursts ({@link #link(boolean)}). Woven into class files of Java 7 and later; older ones
     * call those methods directly.
     *
     * @param caller the woven class's lookup (unused: every site of a kind shares one call site)
     * @param name   {@code write}, {@code guardedWrite} or {@code read} ({@code (Object, int)void}),
     *               {@code slotWrite}, {@code slotGuardedWrite} or {@code slotRead} ({@code (Object, int, int)void}),
     *               {@code held} or {@code released} ({@code ()void}), or {@code heldIf} ({@code (boolean)void})
     * @param type   the call's type, as the name says
     * @return the call site of that kind
     */
    public static CallSite site(final MethodHandles.Lookup caller, final String name, final MethodType type) {
        for (int kind = 0; kind < KINDS.length; kind++) {
            if (KINDS[kind].equals(name)) {
                return SWITCHED[kind];
            }
        }
        throw new IllegalArgumentException("no counting call named " + name);
    }

    /**
     * Counts a write; woven before PUTFIELD, PUTSTATIC and writing atomic and VarHandle calls of
     * a class file older than Java 7; otherwise the call site a woven {@code invokedynamic} links
     * to ({@link #site}) calls it around a burst.
     *
     * @param target the object written (the Class for a static field); may be null
     * @param field  the field's id from {@link FieldTable}
     */
    public static void write(final Object target, final int field) {
        if ((boolean) COUNTING.getOpaque()) {
            tally(target, field, WRITES, false);
        }
    }

    /**
     * Counts a write made holding a monitor or a {@code java.util.concurrent} lock, as far as the
     * weaver could tell from the code's order: a write like any other, also counted apart.
     *
     * @param target the object written (the Class for a static field); may be null
     * @param field  the field's id from {@link FieldTable}
     */
    public static void guardedWrite(final Object target, final int field) {
        if ((boolean) COUNTING.getOpaque()) {
            tally(target, field, WRITES, true);
        }
    }

    /**
     * Counts a read; woven before GETFIELD, GETSTATIC and reading atomic and VarHandle calls.
     *
     * @param target the object read (the Class for a static field); may be null
     * @param field  the field's id from {@link FieldTable}
     */
    public static void read(final Object target, final int field) {
        if ((boolean) COUNTING.getOpaque()) {
            tally(target, field, READS, false);
        }
    }

    /**
     * Counts a write of an array slot; woven before writing calls on an atomic array or an
     * array-element VarHandle, and before an {@code xASTORE}.
     *
     * @param array the atomic array or the array; may be null
     * @param index the slot's index
     * @param kind  the {@link SlotKind#code()} of what holds the slot; for an array instruction, with
     *              its site above it ({@link ArraySites#code})
     */
    public static void slotWrite(final Object array, final int index, final int kind) {
        if ((boolean) COUNTING.getOpaque()) {
            slot(array, index, kind, SLOT_WRITES, false);
        }
    }

    /**
     * Counts a write of an array slot made holding a monitor or a {@code java.util.concurrent}
     * lock, as far as the weaver could tell.
     *
     * @param array the atomic array or the array; may be null
     * @param index the slot's index
     * @param kind  the {@link SlotKind#code()} of what holds the slot; for an array instruction, with
     *              its site above it ({@link ArraySites#code})
     */
    public static void slotGuardedWrite(final Object array, final int index, final int kind) {
        if ((boolean) COUNTING.getOpaque()) {
            slot(array, index, kind, SLOT_WRITES, true);
        }
    }

    /**
     * Counts a read of an array slot; woven before reading calls and before an {@code xALOAD}.
     *
     * @param array the atomic array or the array; may be null
     * @param index the slot's index
     * @param kind  the {@link SlotKind#code()} of what holds the slot; for an array instruction, with
     *              its site above it ({@link ArraySites#code})
     */
    public static void slotRead(final Object array, final int index, final int kind) {
        if ((boolean) COUNTING.getOpaque()) {
            slot(array, index, kind, SLOT_READS, false);
        }
    }

    /** Counts a lock this thread took, woven after a monitor enter, a lock or lockInterruptibly. */
    public static void held() {
        holding(1);
    }

    /**
     * Counts a lock this thread took if it did, woven after a tryLock.
     *
     * @param acquired what tryLock returned
     */
    public static void heldIf(final boolean acquired) {
        if (acquired) {
            holding(1);
        }
    }

    /** Counts a lock this thread released, woven after a monitor exit or an unlock. */
    public static void released() {
        holding(-1);
    }

    /**
     * Keeps the stripe's count of held locks, whether or not a burst counts, so that a burst that
     * starts with a lock held knows it; never below 0, for a lock taken before the sites were linked
     * is released after.
     */
    private static void holding(final int change) {
        final long[] c = Counts.CELLS;
        @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
        final int i = PAD + ((int) Thread.currentThread().getId() & (STRIPES - 1)) * STRIDE + HELD;
        c[i] = Math.max(0, c[i] + change);
    }

    private static void slot(final Object array, final int index, final int kind, final int what, final boolean guardedHere) {
        if (array == null) {
            return;
        }
        final long[] s = Counts.SLOTS;
        @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
        final long id = Thread.currentThread().getId();
        final boolean guarded = guardedHere || Counts.CELLS[PAD + ((int) id & (STRIPES - 1)) * STRIDE + HELD] > 0;
        final int base = PAD + ((int) id & (STRIPES - 1)) * SLOT_STRIDE;
        final long key = ((long) System.identityHashCode(array) << 8) | ArraySites.kind(kind);
        final int start = (int) (((key ^ index) * 0x9E37_79B9_7F4A_7C15L) >>> SLOT_SHIFT);
        for (int probe = 0; probe < SLOT_PROBES; probe++) {
            final int e = base + SLOT_HEADER + ((start + probe) & (SLOT_ENTRIES - 1)) * SLOT_LONGS;
            final long known = s[e + SLOT_KEY];
            if (known == 0) {
                s[base] = id;
                s[e + SLOT_INDEX] = index;
                s[e + SLOT_SITE] = ArraySites.site(kind);
                s[e + SLOT_KEY] = key;
            } else if (known != key || s[e + SLOT_INDEX] != index) {
                continue;
            }
            s[e + what]++;
            if (guarded && what == SLOT_WRITES) {
                s[e + SLOT_GUARDED]++;
            }
            return;
        }
        s[base + SLOT_LOST]++;
    }

    /** One access of a kind ({@link #WRITES} or {@link #READS}); the callers' constants fold once inlined. */
    private static void tally(final Object target, final int field, final int kind, final boolean guardedHere) {
        final long[] c = Counts.CELLS;
        @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
        final int stripe = (int) Thread.currentThread().getId() & (STRIPES - 1);
        final boolean guarded = guardedHere || c[PAD + stripe * STRIDE + HELD] > 0;
        final int i = PAD + stripe * STRIDE + field * SLOTS;
        c[i + kind]++;
        if (guarded && kind == WRITES) {
            c[i + GUARDED]++;
        }
        if (--c[i + COUNTDOWN] < 0) {
            sample(target, stripe, i, kind == WRITES ? WRITE_MARK : 0);
        }
    }

    private static void sample(final Object target, final int stripe, final int i, final long mark) {
        try {
            final long[] c = Counts.CELLS;
            @SuppressWarnings("deprecation")
            final long id = Thread.currentThread().getId();
            c[PAD + stripe * STRIDE] = id;
            long x = c[i + RANDOM];
            if (x == 0) {
                x = 0x9E37_79B9_7F4A_7C15L ^ i;
            }
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            c[i + RANDOM] = x;
            c[i + COUNTDOWN] = SAMPLE_MIN + (x & SAMPLE_JITTER);
            final Addresses where = addresses;
            if (where != null && target != null) {
                final int position = i + RING_POSITION + (int) mark;
                final int k = (int) (c[position]++ % RING_SIZE);
                c[i + RING + (mark == 0 ? RING_SIZE : 0) + k] = where.of(target, stripe) | mark;
            }
        } catch (final Throwable t) {
            // the host's code called this: a sample lost is better than an exception in it
        }
    }

    /**
     * Switches the woven call sites to the counting methods, or back to nothing. The JIT drops
     * the code compiled against the old target, so the threads running woven methods spend a
     * short spell in slower code after each switch: counting ({@link #count}) starts only once
     * that has settled, or the spell's own timing would be counted.
     */
    static synchronized void link(final boolean on) {
        if (on) {
            // what was held when the sites were last unlinked may have been released since, unseen
            for (int stripe = 0; stripe < STRIPES; stripe++) {
                Counts.CELLS[PAD + stripe * STRIDE + HELD] = 0;
            }
        }
        for (int kind = 0; kind < SWITCHED.length; kind++) {
            SWITCHED[kind].setTarget(on ? COUNTERS[kind] : MethodHandles.empty(SWITCHED[kind].type()));
        }
        MutableCallSite.syncAll(SWITCHED);
    }

    /** Zeroes every counter before a window, while no woven site is linked: nothing else writes them then. */
    static void clear() {
        java.util.Arrays.fill(Counts.CELLS, 0);
        java.util.Arrays.fill(Counts.SLOTS, 0);
    }

    /** Turns counting on or off; off is where a window starts and ends. */
    static void count(final boolean on) {
        COUNTING.setVolatile(on);
    }

    /** Allocates the counters and starts address sampling, before the first burst: until then nothing is kept. */
    static void sampleWith(final Addresses where) {
        // allocated here, not on the host thread that would count first
        cells();
        slots();
        addresses = where;
    }

    /** @return the live cells, laid out as the constants above say */
    static long[] cells() {
        return Counts.CELLS;
    }

    /** @return the live array-slot counters, laid out as the SLOT constants above say */
    static long[] slots() {
        return Counts.SLOTS;
    }

    /** @return the first long of a field's slots in a stripe */
    static int index(final int stripe, final int field) {
        return PAD + stripe * STRIDE + field * SLOTS;
    }
}
