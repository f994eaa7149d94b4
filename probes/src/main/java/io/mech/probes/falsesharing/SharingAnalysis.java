package io.mech.probes.falsesharing;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a window's counts and sampled addresses into verdicts. A line is judged by where the
 * accesses actually landed (each sampled object address plus the field's offset), so a padded
 * class, or objects far apart, can never be accused: two accesses must have been seen on one
 * line. Accesses rarer than {@link #MIN_RATE} per second are ignored: such a line moves too
 * seldom to cost anything.
 *
 * <p>Rules, for two threads A and B: a field A and B both write in one object, holding no lock, is
 * true sharing (under a lock it is the lock probe's contention, and writes under a lock judge no
 * line at all: the line moves with the lock),
 * and its line is not accused of false sharing too. Otherwise A writing one location while B
 * writes or reads another on the same line is false sharing when both are in one object, and
 * cross-object when they are in two; the two lines of one 128-byte pair make an adjacent-line
 * note, scored at {@link #ADJACENT_WEIGHT} of a shared line. A location
 * that A writes itself is communication, not a neighbour: B reading it is the point of the code.
 */
final class SharingAnalysis {

    /** Kind (false sharing first), then score, worst first. */
    static final Comparator<Verdict> WORST_FIRST = Comparator.comparing(Verdict::kind)
        .thenComparing(Comparator.comparingDouble(Verdict::score).reversed());

    /** Accesses per second below which a field is not judged. */
    static final double MIN_RATE = 1_000;

    /**
     * What an adjacent-line pair's score is multiplied by: what the second line of a 128-byte
     * pair was measured to cost, as a share of what one shared line costs. On the bench's
     * machine (AMD EPYC, 2 cores; the false-sharing kernel's adjacent-lines, padded and
     * same-object variants side by side, bench/results) fields 64 bytes apart ran as fast as
     * fields 128 bytes apart within the runs' noise (a few percent), while one shared line cost
     * 3-5x: at most about 1/64 of a shared line's cost. With this weight a note never outranks a
     * same-line verdict at rates less than 64 times its own.
     */
    static final double ADJACENT_WEIGHT = 1.0 / 64;

    private static final String FIX_PAD = "keep the fields 128 bytes apart with a padding class hierarchy (superclass fields "
        + "are laid out first), or annotate them @jdk.internal.vm.annotation.Contended and run with -XX:-RestrictContended";
    private static final String FIX_EXCHANGE = "the two threads talk through these fields: each reads, as often as it "
        + "writes its own, the field the other writes, so the line moves on every exchange however they are laid out, and "
        + "padding alone can make it slower (two lines move instead of one); have each side keep its own copy of the "
        + "other's field and re-read it only when that copy runs out (as a single-producer queue caches the other index), "
        + "then pad";
    private static final String FIX_STATIC = "move each static into an object of its own padded to 128 bytes: statics share "
        + "the Class mirror, which no subclass can pad, and @Contended does not apply to them";
    static final String FIX_TRUE = "give each thread its own state and combine on read (LongAdder, per-thread "
        + "counters), or write the shared field less often";
    /** Allocating per thread is no fix: twins allocated so were seen on one line after a young collection copied them. */
    private static final String FIX_CROSS = "pad the class to 128 bytes with a padding class hierarchy; allocating each object on "
        + "the thread that writes it is not enough, for a copying collection may move the objects side by side";
    private static final String FIX_ADJACENT = "a note, not a defect: the two lines of a 128-byte pair, which the "
        + "adjacent-line prefetcher pulls together, cost little next to one shared line (the score is weighted by what they "
        + "were measured to cost); should it matter on this machine, keep the fields 128 bytes apart";

    private final FieldLayout layout;

    SharingAnalysis(final FieldLayout layout) {
        this.layout = layout;
    }

    /** What one thread stripe did to one field. */
    private static final class Access {
        final FieldLayout.Placed field;
        final int stripe;
        long writes;
        long guarded;
        long reads;
        final Set<Long> written = new HashSet<>();
        final Set<Long> read = new HashSet<>();

        Access(final FieldLayout.Placed field, final int stripe) {
            this.field = field;
            this.stripe = stripe;
        }
    }

    /** The verdict being built for one line and kind. */
    private static final class Finding {
        final Verdict.Kind kind;
        final FieldLayout.Placed first;
        final FieldLayout.Placed second;
        final Set<Integer> stripes = new LinkedHashSet<>();
        double rateA;
        double rateB;
        double probability;
        double score = -1;
        boolean exchange;

        Finding(final Verdict.Kind kind, final FieldLayout.Placed first, final FieldLayout.Placed second) {
            this.kind = kind;
            this.first = first;
            this.second = second;
        }
    }

    /**
     * @param cells       a copy of {@link Tally#cells()} at the end of the window, its rings read as
     *                    one burst
     * @param fields      the counted fields by id (index 0 unused), resolved; null where unresolved
     * @param seconds     the window's length
     * @param threadNames names of the threads by id, as far as they are known
     * @return the verdicts, false sharing first, then true sharing, cross-object and adjacent-line,
     *         each worst first
     */
    List<Verdict> analyse(final long[] cells, final List<FieldLayout.Placed> fields, final double seconds,
                          final Map<Long, String> threadNames) {
        return analyse(cells, Samples.of(cells), fields, seconds, threadNames);
    }

    /**
     * @param cells       a copy of {@link Tally#cells()} at the end of the window, for its counts
     * @param samples     the window's address samples, burst by burst
     * @param fields      the counted fields by id (index 0 unused), resolved; null where unresolved
     * @param seconds     the window's length
     * @param threadNames names of the threads by id, as far as they are known
     * @return the verdicts, false sharing first, then true sharing, cross-object and adjacent-line,
     *         each worst first
     */
    List<Verdict> analyse(final long[] cells, final Samples samples, final List<FieldLayout.Placed> fields, final double seconds,
                          final Map<Long, String> threadNames) {
        final List<Access> accesses = new ArrayList<>();
        final Map<Integer, Set<Long>> writtenBy = new HashMap<>();
        for (int stripe = 0; stripe < Tally.STRIPES; stripe++) {
            final Map<String, Access> mine = new LinkedHashMap<>();
            for (int id = 1; id < fields.size(); id++) {
                final FieldLayout.Placed field = fields.get(id);
                if (field == null || field.isFinal()) {
                    continue;
                }
                final int i = Tally.index(stripe, id);
                final long writes = cells[i + Tally.WRITES];
                final long reads = cells[i + Tally.READS];
                if (writes == 0 && reads == 0) {
                    continue;
                }
                final int owner = stripe;
                final Access access = mine.computeIfAbsent(field.name(), k -> new Access(field, owner));
                access.writes += writes;
                access.guarded += cells[i + Tally.GUARDED];
                access.reads += reads;
                for (final long sample : samples.of(stripe, id)) {
                    final long at = Samples.at(sample, field.offset());
                    if ((sample & Tally.WRITE_MARK) != 0) {
                        access.written.add(at);
                        writtenBy.computeIfAbsent(stripe, s -> new HashSet<>()).add(Samples.untagged(at));
                    } else {
                        access.read.add(at);
                    }
                }
            }
            accesses.addAll(mine.values());
        }
        final List<Finding> findings = new ArrayList<>();
        final Set<String> trueShared = trueSharing(accesses, seconds, findings);
        sharedLines(accesses, writtenBy, trueShared, seconds, findings);
        for (final Finding finding : findings) {
            finding.exchange = finding.kind == Verdict.Kind.FALSE_SHARING && isExchange(finding, accesses);
        }
        final List<Verdict> verdicts = new ArrayList<>();
        for (final Finding finding : findings) {
            verdicts.add(verdict(finding, cells, threadNames));
        }
        verdicts.sort(WORST_FIRST);
        return verdicts;
    }

    /**
     * Whether the two fields are how two threads talk: the main writer of each reads the other
     * field at least as often as it writes its own. Then the line has to move on every exchange,
     * and padding removes none of that traffic.
     */
    private static boolean isExchange(final Finding finding, final List<Access> accesses) {
        final Access firstWriter = mainWriter(finding.first, accesses);
        final Access secondWriter = mainWriter(finding.second, accesses);
        return firstWriter != null && secondWriter != null && firstWriter.stripe != secondWriter.stripe
            && readsBy(firstWriter.stripe, finding.second, accesses) >= firstWriter.writes
            && readsBy(secondWriter.stripe, finding.first, accesses) >= secondWriter.writes;
    }

    private static Access mainWriter(final FieldLayout.Placed field, final List<Access> accesses) {
        Access most = null;
        for (final Access access : accesses) {
            if (access.field.name().equals(field.name()) && access.writes > 0 && (most == null || access.writes > most.writes)) {
                most = access;
            }
        }
        return most;
    }

    private static long readsBy(final int stripe, final FieldLayout.Placed field, final List<Access> accesses) {
        for (final Access access : accesses) {
            if (access.stripe == stripe && access.field.name().equals(field.name())) {
                return access.reads;
            }
        }
        return 0;
    }

    private static Set<String> trueSharing(final List<Access> accesses, final double seconds, final List<Finding> findings) {
        final Map<String, List<Access>> writers = new LinkedHashMap<>();
        for (final Access access : accesses) {
            if ((access.writes - access.guarded) / seconds >= MIN_RATE) {
                writers.computeIfAbsent(access.field.name(), k -> new ArrayList<>()).add(access);
            }
        }
        final Set<String> shared = new HashSet<>();
        for (final List<Access> list : writers.values()) {
            final Finding finding = new Finding(Verdict.Kind.TRUE_SHARING, list.get(0).field, null);
            for (int i = 0; i < list.size(); i++) {
                for (int j = i + 1; j < list.size(); j++) {
                    final Access a = list.get(i);
                    final Access b = list.get(j);
                    if (!a.field.isStatic() && disjoint(a.written, b.written)) {
                        continue;
                    }
                    final double rateA = (a.writes - a.guarded) / seconds;
                    final double rateB = (b.writes - b.guarded) / seconds;
                    finding.stripes.add(a.stripe);
                    finding.stripes.add(b.stripe);
                    if (Math.min(rateA, rateB) > finding.score) {
                        finding.score = Math.min(rateA, rateB);
                        finding.rateA = Math.max(rateA, rateB);
                        finding.rateB = Math.min(rateA, rateB);
                        finding.probability = 1;
                    }
                }
            }
            if (finding.score >= 0) {
                findings.add(finding);
                shared.add(finding.first.name());
            }
        }
        return shared;
    }

    /** Whether two threads wrote no location in common, whenever in the window they wrote it. */
    private static boolean disjoint(final Set<Long> a, final Set<Long> b) {
        final Set<Long> locations = new HashSet<>();
        for (final Long x : b) {
            locations.add(Samples.untagged(x));
        }
        for (final Long x : a) {
            if (locations.contains(Samples.untagged(x))) {
                return false;
            }
        }
        return true;
    }

    /** @param writtenBy each stripe's written locations, untagged ({@link Samples#untagged}) */
    private void sharedLines(final List<Access> accesses, final Map<Integer, Set<Long>> writtenBy, final Set<String> trueShared,
                             final double seconds, final List<Finding> findings) {
        final Map<String, Finding> byKey = new LinkedHashMap<>();
        final Set<String> writers = new HashSet<>();
        for (final Access access : accesses) {
            if (access.writes > 0) {
                writers.add(access.stripe + " " + access.field.name());
            }
        }
        for (final Access a : accesses) {
            if ((a.writes - a.guarded) / seconds < MIN_RATE || trueShared.contains(a.field.name()) || a.written.isEmpty()) {
                continue;
            }
            for (final Access b : accesses) {
                if (b.stripe == a.stripe || trueShared.contains(b.field.name())) {
                    continue;
                }
                final Set<Long> ownA = writtenBy.getOrDefault(a.stripe, Set.of());
                final Set<Long> ownB = writtenBy.getOrDefault(b.stripe, Set.of());
                final boolean bWritesA = writers.contains(b.stripe + " " + a.field.name());
                final double rateA = (a.writes - a.guarded) / seconds;
                pair(a, b, b.written, rateA, (b.writes - b.guarded) / seconds, ownA, ownB, bWritesA, byKey);
                pair(a, b, b.read, rateA, b.reads / seconds, ownA, ownB, bWritesA, byKey);
            }
        }
        findings.addAll(byKey.values());
    }

    /**
     * Judges A's writes against B's accesses of another location.
     *
     * @param bWritesA whether B also writes A's field: then, for two fields of one object, the line
     *                 moves between them for that field itself (a structure handed over, under a
     *                 lock in a caller the weaver cannot see, or a field several threads write),
     *                 and the neighbour adds nothing padding would remove
     */
    private void pair(final Access a, final Access b, final Set<Long> touched, final double rateA, final double rateB,
                      final Set<Long> ownA, final Set<Long> ownB, final boolean bWritesA, final Map<String, Finding> byKey) {
        if (rateB < MIN_RATE || touched.isEmpty()) {
            return;
        }
        int sameLine = 0;
        int adjacent = 0;
        boolean oneObject = false;
        for (final long x : a.written) {
            boolean hit = false;
            boolean near = false;
            for (final long y : touched) {
                // what a thread wrote is its own whenever in the window it wrote it: only the shared line needs one span
                if (x == y || ownA.contains(Samples.untagged(y)) || ownB.contains(Samples.untagged(x))) {
                    continue;
                }
                final long lx = x / FieldLayout.LINE;
                final long ly = y / FieldLayout.LINE;
                if (lx == ly) {
                    hit = true;
                    oneObject |= x - a.field.offset() == y - b.field.offset();
                } else if (lx / 2 == ly / 2) {
                    near = true;
                }
            }
            sameLine += hit ? 1 : 0;
            adjacent += !hit && near ? 1 : 0;
        }
        if (sameLine > 0 && oneObject && bWritesA && !a.field.name().equals(b.field.name())) {
            return;
        }
        if (sameLine > 0) {
            final Verdict.Kind kind = oneObject ? Verdict.Kind.FALSE_SHARING : Verdict.Kind.CROSS_OBJECT;
            final double p = oneObject ? layout.sameLine(a.field.offset(), b.field.offset()) : (double) sameLine / a.written.size();
            record(byKey, kind, a, b, rateA, rateB, p, 1);
        } else if (adjacent > 0) {
            record(byKey, Verdict.Kind.ADJACENT_LINE, a, b, rateA, rateB, (double) adjacent / a.written.size(), ADJACENT_WEIGHT);
        }
    }

    private static void record(final Map<String, Finding> byKey, final Verdict.Kind kind, final Access a, final Access b,
                               final double rateA, final double rateB, final double probability, final double weight) {
        final boolean aFirst = a.field.offset() <= b.field.offset();
        final FieldLayout.Placed first = aFirst ? a.field : b.field;
        final FieldLayout.Placed second = aFirst ? b.field : a.field;
        final String key = kind + " " + first.name() + " " + second.name();
        final Finding finding = byKey.computeIfAbsent(key, k -> new Finding(kind, first, second));
        finding.stripes.add(a.stripe);
        finding.stripes.add(b.stripe);
        final double score = Math.min(rateA, rateB) * probability * weight;
        if (score > finding.score) {
            finding.score = score;
            finding.rateA = rateA;
            finding.rateB = rateB;
            finding.probability = probability;
        }
    }

    private static Verdict verdict(final Finding finding, final long[] cells, final Map<Long, String> threadNames) {
        final List<String> threads = new ArrayList<>();
        for (final int stripe : finding.stripes) {
            final long id = cells[Tally.PAD + stripe * Tally.STRIDE];
            threads.add(threadNames.getOrDefault(id, "thread " + id));
        }
        final List<String> names = new ArrayList<>();
        final List<Long> offsets = new ArrayList<>();
        names.add(finding.first.field().getName());
        offsets.add(finding.first.offset());
        String className = finding.first.declaring().getName();
        if (finding.second != null && !finding.second.name().equals(finding.first.name())) {
            names.add(finding.second.field().getName());
            offsets.add(finding.second.offset());
            if (finding.second.declaring() != finding.first.declaring()
                && !finding.second.declaring().isAssignableFrom(finding.first.declaring())
                && !finding.first.declaring().isAssignableFrom(finding.second.declaring())) {
                className = className + " / " + finding.second.declaring().getName();
            }
        }
        final String fix;
        switch (finding.kind) {
            case TRUE_SHARING:
                fix = FIX_TRUE;
                break;
            case CROSS_OBJECT:
                fix = FIX_CROSS;
                break;
            case ADJACENT_LINE:
                fix = FIX_ADJACENT;
                break;
            default:
                fix = finding.exchange ? FIX_EXCHANGE : finding.first.isStatic() ? FIX_STATIC : FIX_PAD;
        }
        return new Verdict(finding.kind, className, names, offsets, threads, List.of(finding.rateA, finding.rateB),
            finding.probability, finding.score, fix);
    }
}
