package io.mech.agent.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mech.probes.falsesharing.FalseSharingSnapshot;
import io.mech.probes.falsesharing.LayoutCandidate;
import io.mech.probes.falsesharing.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class FalseSharingLinesTest {

    private static final Verdict SHARED = new Verdict(Verdict.Kind.FALSE_SHARING, "app.Counters", List.of("first", "second"),
        List.of(12L, 20L), List.of("w1", "w2"), List.of(2.5e6, 1500.0), 1.0, 1.2e6, "pad first and second 128 bytes apart");
    private static final Verdict NOTE = new Verdict(Verdict.Kind.ADJACENT_LINE, "app.Pair", List.of("a", "b"),
        List.of(16L, 80L), List.of("w1", "w2"), List.of(10.0, 20.0), 0.5, 0.2, "128 bytes apart, not 64");

    @Test
    void aDoneWindowListsDefectsThenPrefetchPairNotesAndSaysHowManyMoreThereAre() {
        final FalseSharingSnapshot done = new FalseSharingSnapshot(FalseSharingSnapshot.State.DONE, 2.0, 3, 7,
            List.of(new LayoutCandidate("app.Counters", "first", 12, "second", 20, 1.0, false)), List.of(SHARED, SHARED, NOTE),
            1_764_000_000_000L);
        assertEquals(List.of(
            "false sharing: 2.0 s window, 3 classes woven, 7 fields counted; layout: 1 field pairs may share a line, "
                + "0 sit on adjacent lines; ended 2025-11-24T16:00:00Z",
            "  false sharing: app.Counters.first (offset 12) and .second (offset 20), threads w1, w2, rates 2.5M and 1.5k/s, "
                + "one line with probability 1.00, score 1.2M/s; fix: pad first and second 128 bytes apart",
            "  ... 1 more"), FalseSharingLines.of(done, 1));
        final List<String> all = FalseSharingLines.of(done, 3);
        assertEquals("  prefetch-pair notes, not defects (neighbouring lines of a 128-byte pair, scored at 1/64 of one line):",
            all.get(3));
        assertEquals("    adjacent-line: app.Pair.a (offset 16) and .b (offset 80), threads w1, w2, rates 10 and 20/s, "
            + "one line with probability 0.50, score 0/s; fix: 128 bytes apart, not 64", all.get(4));
    }

    @Test
    void aWindowNotDoneSaysWhereItStands() {
        assertEquals(List.of("false sharing: the window has not started yet"), FalseSharingLines.of(
            new FalseSharingSnapshot(FalseSharingSnapshot.State.WAITING, 0, 0, 0, List.of(), List.of()), 20));
        assertEquals(List.of("false sharing: measuring (4 classes woven, 9 fields counted)"), FalseSharingLines.of(
            new FalseSharingSnapshot(FalseSharingSnapshot.State.MEASURING, 0, 4, 9, List.of(), List.of()), 20));
    }

    @Test
    void aWindowWithNothingFoundSaysWhatItCountedAndWhatNot() {
        final FalseSharingSnapshot clean = new FalseSharingSnapshot(FalseSharingSnapshot.State.DONE, 2.0, 3, 7, List.of(),
            List.of(NOTE), 0, 5, List.of("2 Unsafe calls at an offset not taken of a named field, in 1 class", "code outside app"));
        final List<String> lines = FalseSharingLines.of(clean, 20);
        assertEquals("  among the 7 fields and 5 array slots counted, no line was written by one thread while another used it",
            lines.get(1));
        assertEquals("  not counted: 2 Unsafe calls at an offset not taken of a named field, in 1 class; code outside app",
            lines.get(2));
    }
}
