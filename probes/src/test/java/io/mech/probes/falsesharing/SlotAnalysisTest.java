package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The array-slot rules on hand-made windows: threads of stripes 1 and 2 on slots of one AtomicLongArray, one second long. */
class SlotAnalysisTest {

    private static final long HASH = 0x1b6d3586L;
    private static final long RATE = 1_000_000;

    private SlotAnalysis analysis;
    private ArraySites sites;
    private long[] slots;
    private int entry;

    @BeforeEach
    void setUp() throws Exception {
        final InternalUnsafe unsafe = InternalUnsafe.open(ByteBuddyAgent.install());
        sites = new ArraySites();
        analysis = new SlotAnalysis(new FieldLayout(unsafe, 8), unsafe, sites);
        slots = new long[Tally.slots().length];
        clear();
    }

    /** An empty window of stripes 1 and 2. */
    private void clear() {
        java.util.Arrays.fill(slots, 0);
        slots[Tally.PAD + Tally.SLOT_STRIDE] = 101;
        slots[Tally.PAD + 2 * Tally.SLOT_STRIDE] = 102;
        entry = 0;
    }

    private void access(final int stripe, final long index, final long writes, final long guarded, final long reads) {
        access(stripe, index, writes, guarded, reads, SlotKind.ATOMIC_LONG_ARRAY, 0);
    }

    private void access(final int stripe, final long index, final long writes, final long guarded, final long reads,
                        final SlotKind kind, final int site) {
        final int e = Tally.PAD + stripe * Tally.SLOT_STRIDE + Tally.SLOT_HEADER + entry++ * Tally.SLOT_LONGS;
        slots[e + Tally.SLOT_KEY] = HASH << 8 | kind.code();
        slots[e + Tally.SLOT_SITE] = site;
        slots[e + Tally.SLOT_INDEX] = index;
        slots[e + Tally.SLOT_WRITES] = writes;
        slots[e + Tally.SLOT_GUARDED] = guarded;
        slots[e + Tally.SLOT_READS] = reads;
    }

    private List<Verdict> verdicts() {
        return analysis.analyse(slots, 1.0, Map.of(101L, "a", 102L, "b"));
    }

    @Test
    void neighbouringSlotsOfTwoWritersAreFalseSharingAndTheFixNamesTheStride() {
        access(1, 0, RATE, 0, 0);
        access(2, 1, RATE / 2, 0, 0);
        final List<Verdict> verdicts = verdicts();
        assertEquals(1, verdicts.size(), verdicts.toString());
        final Verdict v = verdicts.get(0);
        assertEquals(Verdict.Kind.FALSE_SHARING, v.kind());
        assertEquals("java.util.concurrent.atomic.AtomicLongArray@1b6d3586", v.className());
        assertEquals(List.of("[0]", "[1]"), v.fields());
        assertEquals(List.of("a", "b"), v.threads());
        assertEquals(7.0 / 8, v.probability());
        assertEquals(RATE / 2 * 7.0 / 8, v.score(), 1e-6);
        assertTrue(v.fix().contains("16 longs") && v.fix().contains("LongAdder"), v.fix());
    }

    @Test
    void slotsOneLineApartAreSilent() {
        access(1, 0, RATE, 0, 0);
        access(2, 16, RATE, 0, 0);
        assertEquals(List.of(), verdicts());
    }

    @Test
    void oneSlotTwoThreadsWriteIsTrueSharingUnlessUnderALock() {
        access(1, 3, RATE, 0, 0);
        access(2, 3, RATE, 0, 0);
        assertEquals(List.of(Verdict.Kind.TRUE_SHARING), verdicts().stream().map(Verdict::kind).toList());
        clear();
        access(1, 3, RATE, RATE, 0);
        access(2, 3, RATE, RATE, 0);
        access(2, 4, RATE, RATE, 0);
        assertEquals(List.of(), verdicts());
    }

    @Test
    void aSlotTheOtherThreadAlsoWritesIsHowTheyTalk() {
        access(1, 0, RATE, 0, 0);
        access(1, 1, RATE, 0, 0);
        access(2, 1, 0, 0, RATE);
        assertEquals(List.of(), verdicts());
    }

    @Test
    void aPlainArrayIsNamedByItsSiteAndItsSlotsWrittenByTwoThreadsAreHandedOver() {
        final int site = sites.id("app.Counters.hits");
        access(1, 0, RATE, 0, 0, SlotKind.LONGS, site);
        access(2, 1, RATE, 0, 0, SlotKind.LONGS, site);
        final List<Verdict> verdicts = verdicts();
        assertEquals(1, verdicts.size(), verdicts.toString());
        assertEquals("long[]@1b6d3586 held by app.Counters.hits", verdicts.get(0).className());
        assertEquals(List.of("[0]", "[1]"), verdicts.get(0).fields());
        assertTrue(verdicts.get(0).fix().contains("16 longs (128 bytes) apart"), verdicts.get(0).fix());
        assertEquals(2, SlotAnalysis.counted(slots));
        clear();
        // a ring's element: its producer writes it and its consumer clears it, no counter
        access(1, 5, RATE, 0, 0, SlotKind.REFERENCES, sites.id("in app.Ring.offer"));
        access(2, 5, RATE, 0, RATE, SlotKind.REFERENCES, sites.id("in app.Ring.offer"));
        assertEquals(List.of(), verdicts());
        clear();
        // the ring's producer ahead of its consumer at the end of a burst: slot 7 it wrote, slot 6 the consumer had not reached
        final int ring = sites.id("app.Ring.buffer");
        access(1, 5, RATE, 0, 0, SlotKind.REFERENCES, ring);
        access(1, 7, RATE, 0, 0, SlotKind.REFERENCES, ring);
        access(2, 5, RATE, 0, RATE, SlotKind.REFERENCES, ring);
        access(2, 6, 0, 0, RATE, SlotKind.REFERENCES, ring);
        assertEquals(List.of(), verdicts(), "threads that hand slots over through a plain array talk through it");
    }

    @Test
    void accessesLostToFullTablesAreSummed() {
        slots[Tally.PAD + Tally.SLOT_STRIDE + Tally.SLOT_LOST] = 3;
        slots[Tally.PAD + 2 * Tally.SLOT_STRIDE + Tally.SLOT_LOST] = 4;
        assertEquals(7, SlotAnalysis.lost(slots));
    }

    @Test
    void fourThreadsOnSlotsSideBySideNameEverySlotAndThreadOfTheirPairs() {
        slots[Tally.PAD + 3 * Tally.SLOT_STRIDE] = 103;
        slots[Tally.PAD + 4 * Tally.SLOT_STRIDE] = 104;
        access(1, 0, RATE, 0, 0);
        access(2, 1, RATE, 0, 0);
        access(3, 2, RATE, 0, 0);
        access(4, 3, RATE, 0, 0);
        final List<Verdict> verdicts = analysis.analyse(slots, 1.0, Map.of(101L, "a", 102L, "b", 103L, "c", 104L, "d"));
        assertEquals(1, verdicts.size(), verdicts.toString());
        assertEquals(List.of("[0]", "[1]", "[2]", "[3]"), verdicts.get(0).fields());
        assertEquals(List.of("a", "b", "c", "d"), verdicts.get(0).threads().stream().sorted().toList());
        assertEquals(7.0 / 8, verdicts.get(0).probability(), "the worst pair's, two neighbours");
    }
}
