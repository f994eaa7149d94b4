package io.mech.probes.falsesharing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a window's array-slot counts ({@link Tally#slots()}) into verdicts. The slots of one array
 * are contiguous, so where two slots are relative to each other is known exactly; only where the
 * array starts within a line is not, and the probability that two slots share a line is taken over
 * the starts the object alignment allows, as for the fields of one object.
 *
 * <p>Rules, for two threads A and B and one array: a slot both write, holding no lock, is true
 * sharing; A writing slot i while B writes or reads slot j, on one line in some placement, is
 * false sharing, unless A also writes j or B also writes i (then the slots are how they talk).
 * Writes under a lock are the lock's contention, not the line's. Each array gets at most one
 * false-sharing verdict, naming every slot and every thread of its pairs (four threads on slots 0
 * to 3 name all four), its rates, probability and score those of its worst pair.
 *
 * <p>A plain array's slots (counted at {@code xALOAD} and {@code xASTORE}) are judged alike, but
 * for true sharing: a plain slot several threads write is how they hand something over (a ring
 * buffer's element, written by its producer and cleared by its consumer), since a plain counter
 * several threads increment would lose counts; the slots of such an array are then how the threads
 * talk, and judge no line; and two threads one of which uses a slot the other writes hand things
 * over through the array, so none of their slots judges a line either. A plain array is named by its site ({@link ArraySites}) beside its kind
 * and identity hash.
 */
final class SlotAnalysis {

    private final FieldLayout layout;
    private final InternalUnsafe unsafe;
    private final ArraySites sites;

    SlotAnalysis(final FieldLayout layout, final InternalUnsafe unsafe, final ArraySites sites) {
        this.layout = layout;
        this.unsafe = unsafe;
        this.sites = sites;
    }

    /**
     * @param slots a copy of {@link Tally#slots()}
     * @return the accesses every stripe lost because its table of slots was full
     */
    static long lost(final long[] slots) {
        long lost = 0;
        for (int stripe = 0; stripe < Tally.STRIPES; stripe++) {
            lost += slots[Tally.PAD + stripe * Tally.SLOT_STRIDE + Tally.SLOT_LOST];
        }
        return lost;
    }

    /**
     * @param slots a copy of {@link Tally#slots()}
     * @return how many slots the stripes counted, a slot two stripes met counted twice
     */
    static int counted(final long[] slots) {
        int counted = 0;
        for (int stripe = 0; stripe < Tally.STRIPES; stripe++) {
            final int base = Tally.PAD + stripe * Tally.SLOT_STRIDE;
            for (int entry = 0; entry < Tally.SLOT_ENTRIES; entry++) {
                counted += slots[base + Tally.SLOT_HEADER + entry * Tally.SLOT_LONGS + Tally.SLOT_KEY] != 0 ? 1 : 0;
            }
        }
        return counted;
    }

    /** What one thread stripe did to one slot. */
    private record Access(int stripe, long index, long writes, long guarded, long reads, long site) {
        long unguarded() {
            return writes - guarded;
        }
    }

    /**
     * @param slots       a copy of {@link Tally#slots()} at the end of the window
     * @param seconds     the time counted
     * @param threadNames names of the threads by id, as far as they are known
     * @return the verdicts, in no particular order
     */
    List<Verdict> analyse(final long[] slots, final double seconds, final Map<Long, String> threadNames) {
        final Map<Long, List<Access>> byArray = new LinkedHashMap<>();
        for (int stripe = 0; stripe < Tally.STRIPES; stripe++) {
            final int base = Tally.PAD + stripe * Tally.SLOT_STRIDE;
            for (int entry = 0; entry < Tally.SLOT_ENTRIES; entry++) {
                final int e = base + Tally.SLOT_HEADER + entry * Tally.SLOT_LONGS;
                final long key = slots[e + Tally.SLOT_KEY];
                if (key != 0 && SlotKind.of(key & 0xFF) != null) {
                    byArray.computeIfAbsent(key, k -> new ArrayList<>()).add(new Access(stripe, slots[e + Tally.SLOT_INDEX],
                        slots[e + Tally.SLOT_WRITES], slots[e + Tally.SLOT_GUARDED], slots[e + Tally.SLOT_READS],
                        slots[e + Tally.SLOT_SITE]));
                }
            }
        }
        final List<Verdict> verdicts = new ArrayList<>();
        for (final Map.Entry<Long, List<Access>> array : byArray.entrySet()) {
            final SlotKind kind = SlotKind.of(array.getKey() & 0xFF);
            final String site = site(array.getValue());
            final String name = kind.label() + "@" + Integer.toHexString((int) (array.getKey() >>> 8))
                + (site == null ? "" : site.startsWith("in ") ? " " + site : " held by " + site);
            final long base = unsafe.arrayBaseOffset(kind.storage());
            final long scale = unsafe.arrayIndexScale(kind.storage());
            final Set<Long> trueShared = site != null ? Set.of()
                : trueSharing(array.getValue(), seconds, name, base, scale, slots, threadNames, verdicts);
            falseSharing(array.getValue(), trueShared, site != null, seconds, name, kind, base, scale, slots, threadNames, verdicts);
        }
        return verdicts;
    }

    /** @return the name of the first site a stripe met the array at, or null for an atomic array or a VarHandle's */
    private String site(final List<Access> accesses) {
        for (final Access a : accesses) {
            final String name = sites.name(a.site());
            if (name != null) {
                return name;
            }
        }
        return null;
    }

    private static Set<Long> trueSharing(final List<Access> accesses, final double seconds, final String name, final long base,
                                         final long scale, final long[] slots, final Map<Long, String> names,
                                         final List<Verdict> verdicts) {
        final Map<Long, List<Access>> writers = new HashMap<>();
        for (final Access a : accesses) {
            if (a.unguarded() / seconds >= SharingAnalysis.MIN_RATE) {
                writers.computeIfAbsent(a.index(), i -> new ArrayList<>()).add(a);
            }
        }
        final Set<Long> shared = new HashSet<>();
        for (final Map.Entry<Long, List<Access>> slot : writers.entrySet()) {
            final List<Access> list = slot.getValue();
            if (list.size() < 2) {
                continue;
            }
            list.sort((x, y) -> Long.compare(y.unguarded(), x.unguarded()));
            final double rateA = list.get(0).unguarded() / seconds;
            final double rateB = list.get(1).unguarded() / seconds;
            final Set<Integer> stripes = new LinkedHashSet<>();
            list.forEach(a -> stripes.add(a.stripe()));
            shared.add(slot.getKey());
            verdicts.add(new Verdict(Verdict.Kind.TRUE_SHARING, name, List.of("[" + slot.getKey() + "]"),
                List.of(base + slot.getKey() * scale), threads(stripes, slots, names), List.of(rateA, rateB), 1, rateB,
                SharingAnalysis.FIX_TRUE));
        }
        return shared;
    }

    /**
     * @param plain whether the array is indexed by plain instructions: then two threads one of which
     *              uses a slot the other writes hand things over through the array (a ring buffer's
     *              producer and consumer), and none of their pairs is judged, for the slots at the
     *              ends of what each met in a burst are neighbours the other had not reached yet
     */
    private void falseSharing(final List<Access> accesses, final Set<Long> trueShared, final boolean plain, final double seconds,
                              final String name, final SlotKind kind, final long base, final long scale, final long[] slots,
                              final Map<Long, String> names, final List<Verdict> verdicts) {
        final Map<Integer, Set<Long>> written = new HashMap<>();
        final Map<Integer, Set<Long>> touched = new HashMap<>();
        for (final Access a : accesses) {
            if (a.writes() > 0) {
                written.computeIfAbsent(a.stripe(), s -> new HashSet<>()).add(a.index());
            }
            touched.computeIfAbsent(a.stripe(), s -> new HashSet<>()).add(a.index());
        }
        Access worstA = null;
        Access worstB = null;
        double worst = 0;
        double[] worstRates = null;
        double worstP = 0;
        final Set<Integer> stripes = new LinkedHashSet<>();
        final Set<Long> involved = new TreeSet<>();
        for (final Access a : accesses) {
            final double rateA = a.unguarded() / seconds;
            if (rateA < SharingAnalysis.MIN_RATE || trueShared.contains(a.index())) {
                continue;
            }
            for (final Access b : accesses) {
                if (b.stripe() == a.stripe() || b.index() == a.index() || trueShared.contains(b.index())
                    || written.getOrDefault(a.stripe(), Set.of()).contains(b.index())
                    || written.getOrDefault(b.stripe(), Set.of()).contains(a.index())
                    || plain && handOver(written, touched, a.stripe(), b.stripe())) {
                    continue;
                }
                final double rateB = Math.max(b.unguarded(), b.reads()) / seconds;
                final long low = base + Math.min(a.index(), b.index()) * scale;
                final long high = base + Math.max(a.index(), b.index()) * scale;
                final double p = high - low < FieldLayout.LINE ? layout.sameLine(low, high) : 0;
                if (rateB < SharingAnalysis.MIN_RATE || p == 0) {
                    continue;
                }
                stripes.add(a.stripe());
                stripes.add(b.stripe());
                involved.add(a.index());
                involved.add(b.index());
                final double score = Math.min(rateA, rateB) * p;
                if (score > worst) {
                    worst = score;
                    worstA = a;
                    worstB = b;
                    worstRates = new double[] {rateA, rateB};
                    worstP = p;
                }
            }
        }
        if (worstA == null) {
            return;
        }
        final List<String> named = new ArrayList<>();
        final List<Long> offsets = new ArrayList<>();
        for (final long index : involved) {
            named.add("[" + index + "]");
            offsets.add(base + index * scale);
        }
        final long stride = Math.max(1, 2 * FieldLayout.LINE / scale);
        final String fix = String.format(Locale.ROOT, "give each thread slots %d %s (128 bytes) apart, e.g. index * %d, so "
            + "no two threads' slots share a line or a prefetched pair%s", stride, kind.elements(), stride,
            kind.storage() == Object[].class ? "" : ", or count with a LongAdder, which pads a cell for each contending thread");
        verdicts.add(new Verdict(Verdict.Kind.FALSE_SHARING, name, named, offsets, threads(stripes, slots, names),
            List.of(worstRates[0], worstRates[1]), worstP, worst, fix));
    }

    /** @return whether either stripe used a slot the other wrote */
    private static boolean handOver(final Map<Integer, Set<Long>> written, final Map<Integer, Set<Long>> touched, final int a,
                                    final int b) {
        return !java.util.Collections.disjoint(written.getOrDefault(a, Set.of()), touched.getOrDefault(b, Set.of()))
            || !java.util.Collections.disjoint(written.getOrDefault(b, Set.of()), touched.getOrDefault(a, Set.of()));
    }

    private static List<String> threads(final Set<Integer> stripes, final long[] slots, final Map<Long, String> names) {
        final List<String> threads = new ArrayList<>();
        for (final int stripe : stripes) {
            final long id = slots[Tally.PAD + stripe * Tally.SLOT_STRIDE];
            threads.add(names.getOrDefault(id, "thread " + id));
        }
        return threads;
    }
}
