package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fixture.sharing.SharedPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The verdict rules on hand-made windows: two threads (stripes 1 and 2) touching the two
 * counters of {@link SharedPair} objects at chosen addresses, one second long.
 */
class SharingAnalysisTest {

    /** A line-aligned object address. */
    private static final long OBJECT = 1L << 20;
    private static final int FIRST = 1;
    private static final int SECOND = 2;
    private static final long RATE = 1_000_000;

    private FieldLayout layout;
    private List<FieldLayout.Placed> fields;
    private long[] cells;

    @BeforeEach
    void setUp() throws Exception {
        layout = new FieldLayout(InternalUnsafe.open(ByteBuddyAgent.install()), 8);
        fields = new ArrayList<>();
        fields.add(null);
        fields.add(layout.resolve(SharedPair.class, "first"));
        fields.add(layout.resolve(SharedPair.class, "second"));
        cells = new long[Tally.cells().length];
        cells[Tally.PAD + Tally.STRIDE] = 101;
        cells[Tally.PAD + 2 * Tally.STRIDE] = 102;
    }

    private void writes(final int stripe, final int field, final long count, final long guarded, final long... objects) {
        final int i = Tally.index(stripe, field);
        cells[i + Tally.WRITES] += count;
        cells[i + Tally.GUARDED] += guarded;
        for (int k = 0; k < objects.length; k++) {
            cells[i + Tally.RING + k] = objects[k] | Tally.WRITE_MARK;
        }
    }

    private void reads(final int stripe, final int field, final long count, final long... objects) {
        final int i = Tally.index(stripe, field);
        cells[i + Tally.READS] += count;
        for (int k = 0; k < objects.length; k++) {
            cells[i + Tally.RING + Tally.RING_SIZE + k] = objects[k];
        }
    }

    private List<Verdict> verdicts() {
        return new SharingAnalysis(layout).analyse(cells, fields, 1.0, Map.of(101L, "a", 102L, "b"));
    }

    private String kinds() {
        return verdicts().stream().map(v -> v.kind() + " " + v.fields()).toList().toString();
    }

    @Test
    void twoThreadsWritingNeighbouringFieldsOfOneObjectIsFalseSharing() {
        writes(1, FIRST, RATE, 0, OBJECT);
        writes(2, SECOND, RATE / 2, 0, OBJECT);
        final List<Verdict> verdicts = verdicts();
        assertEquals("[FALSE_SHARING [first, second]]", kinds());
        final Verdict v = verdicts.get(0);
        assertEquals(SharedPair.class.getName(), v.className());
        assertEquals(List.of("a", "b"), v.threads());
        assertEquals(layout.sameLine(v.offsets().get(0), v.offsets().get(1)), v.probability());
        assertEquals(RATE / 2 * v.probability(), v.score(), 1e-6);
    }

    @Test
    void readingANeighbourOfAnotherThreadsFieldIsFalseSharing() {
        writes(1, FIRST, RATE, 0, OBJECT);
        reads(2, SECOND, RATE, OBJECT);
        assertEquals("[FALSE_SHARING [first, second]]", kinds());
    }

    @Test
    void twoThreadsThatEachReadTheOthersFieldAsOftenAsTheyWriteTheirOwnAreAnExchange() {
        final Verdict v = firstWriterReadingTheSecondFieldAt(RATE);
        assertEquals(Verdict.Kind.FALSE_SHARING, v.kind());
        assertTrue(v.fix().startsWith("the two threads talk through these fields"), v.fix());
    }

    @Test
    void aWriterThatSeldomReadsTheOtherFieldGetsThePaddingFix() {
        final Verdict v = firstWriterReadingTheSecondFieldAt(RATE / 10);
        assertEquals(Verdict.Kind.FALSE_SHARING, v.kind());
        assertTrue(v.fix().startsWith("keep the fields 128 bytes apart"), v.fix());
    }

    /** Two writers of one object's two fields; the second reads the first's at three times its own writes. */
    private Verdict firstWriterReadingTheSecondFieldAt(final long rate) {
        writes(1, FIRST, RATE, 0, OBJECT);
        reads(1, SECOND, rate, OBJECT);
        writes(2, SECOND, RATE, 0, OBJECT);
        reads(2, FIRST, 3 * RATE, OBJECT);
        return verdicts().get(0);
    }

    @Test
    void readingWhatTheWriterItselfWritesIsCommunicationNotFalseSharing() {
        writes(1, FIRST, RATE, 0, OBJECT);
        writes(1, SECOND, RATE, 0, OBJECT);
        reads(2, SECOND, RATE, OBJECT);
        assertEquals("[]", kinds());
    }

    @Test
    void oneFieldWrittenByTwoThreadsIsTrueSharingOnly() {
        writes(1, FIRST, RATE, 0, OBJECT);
        writes(2, FIRST, RATE, 0, OBJECT);
        writes(2, SECOND, RATE, 0, OBJECT);
        assertEquals("[TRUE_SHARING [first]]", kinds());
    }

    @Test
    void writesUnderALockAreNotTrueSharing() {
        writes(1, FIRST, RATE, RATE, OBJECT);
        writes(2, FIRST, RATE, RATE, OBJECT);
        assertEquals("[]", kinds());
    }

    @Test
    void twoObjectsOnOneLineAreCrossObjectAndOnNeighbouringLinesAdjacent() {
        writes(1, FIRST, RATE, 0, OBJECT);
        writes(2, FIRST, RATE, 0, OBJECT + 32);
        assertEquals("[CROSS_OBJECT [first]]", kinds());
        setUpQuietly();
        writes(1, SECOND, RATE, 0, OBJECT);
        writes(2, SECOND, RATE, 0, OBJECT + 64);
        assertEquals("[ADJACENT_LINE [second]]", kinds());
    }

    @Test
    void twoFieldsOfOneObjectBothThreadsWriteOneOfAreNotFalseSharing() {
        // a structure handed between threads under a lock the weaver cannot see: each writes first, b also reads second
        writes(1, FIRST, RATE, 0, OBJECT);
        writes(2, FIRST, 1, 0);
        reads(2, SECOND, RATE, OBJECT);
        assertEquals("[]", kinds());
    }

    @Test
    void anAdjacentLineNoteRanksBelowASameLineVerdictAtManyTimesItsRates() {
        writes(1, SECOND, 32 * RATE, 0, OBJECT);
        writes(2, SECOND, 32 * RATE, 0, OBJECT + 64);
        final Verdict note = verdicts().get(0);
        setUpQuietly();
        writes(1, FIRST, RATE, 0, OBJECT);
        writes(2, SECOND, RATE, 0, OBJECT);
        final Verdict sameLine = verdicts().get(0);
        assertEquals(Verdict.Kind.ADJACENT_LINE, note.kind());
        assertEquals(Verdict.Kind.FALSE_SHARING, sameLine.kind());
        assertTrue(note.score() < sameLine.score(), note + " must rank below " + sameLine);
        assertEquals(32 * RATE * SharingAnalysis.ADJACENT_WEIGHT, note.score(), 1e-6);
    }

    @Test
    void neighbouringLinesOfTwoPairsAreNotANote() {
        writes(1, SECOND, RATE, 0, OBJECT + 64);
        writes(2, SECOND, RATE, 0, OBJECT + 128);
        assertEquals("[]", kinds());
    }

    @Test
    void linesFarApartOrRareAccessesAreSilent() {
        writes(1, FIRST, RATE, 0, OBJECT);
        writes(2, SECOND, RATE, 0, OBJECT + 256);
        assertEquals("[]", kinds());
        setUpQuietly();
        writes(1, FIRST, (long) SharingAnalysis.MIN_RATE - 1, 0, OBJECT);
        writes(2, SECOND, RATE, 0, OBJECT);
        assertEquals("[]", kinds());
    }

    private void setUpQuietly() {
        try {
            setUp();
        } catch (final Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
