package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mech.probes.falsesharing.FalseSharingSnapshot;
import io.mech.probes.falsesharing.LayoutCandidate;
import io.mech.probes.falsesharing.Verdict;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The false-sharing families as a window left them: one score per verdict, candidate counts by distance. */
public class FalseSharingFamiliesTest {

    /** A finished window with one verdict and three layout candidates, one of them adjacent-line. */
    public static FalseSharingSnapshot done() {
        final Verdict verdict = new Verdict(Verdict.Kind.FALSE_SHARING, "a.Pair", List.of("first", "second"), List.of(16L, 24L),
            List.of("t1", "t2"), List.of(3e6, 2e6), 0.875, 1.75e6, "pad");
        return new FalseSharingSnapshot(FalseSharingSnapshot.State.DONE, 2.0, 5, 7, List.of(
            new LayoutCandidate("a.Pair", "first", 16, "second", 24, 0.875, false),
            new LayoutCandidate("a.Three", "x", 12, "y", 16, 1.0, false),
            new LayoutCandidate("a.Three", "x", 12, "z", 80, 0.5, true)), List.of(verdict));
    }

    @Test
    void oneScorePerVerdictAndCandidatesByDistance() {
        final List<MetricSnapshot> families = new FalseSharingFamilies(FalseSharingFamiliesTest::done).collect();
        assertEquals(List.of("mech_falsesharing_score", "mech_falsesharing_candidate_pairs", "mech_falsesharing_woven_classes"),
            families.stream().map(f -> f.getMetadata().getName()).toList());
        final GaugeSnapshot score = (GaugeSnapshot) families.get(0);
        assertEquals(1, score.getDataPoints().size());
        final GaugeSnapshot.GaugeDataPointSnapshot point = score.getDataPoints().get(0);
        assertEquals("false_sharing", point.getLabels().get("verdict"));
        assertEquals("a.Pair", point.getLabels().get("class"));
        assertEquals("first,second", point.getLabels().get("fields"));
        assertEquals(1.75e6, point.getValue());
        final GaugeSnapshot candidates = (GaugeSnapshot) families.get(1);
        assertEquals(2.0, candidates.getDataPoints().stream().filter(p -> p.getLabels().get("distance").equals("same_line"))
            .findFirst().orElseThrow().getValue());
        assertEquals(1.0, candidates.getDataPoints().stream().filter(p -> p.getLabels().get("distance").equals("adjacent_line"))
            .findFirst().orElseThrow().getValue());
        assertEquals(5.0, ((GaugeSnapshot) families.get(2)).getDataPoints().get(0).getValue());
    }

    @Test
    void beforeTheWindowThereIsNoScore() {
        final FalseSharingSnapshot waiting = new FalseSharingSnapshot(FalseSharingSnapshot.State.WAITING, 0, 0, 0, List.of(), List.of());
        final List<MetricSnapshot> families = new FalseSharingFamilies(() -> waiting).collect();
        assertEquals(0, ((GaugeSnapshot) families.get(0)).getDataPoints().size());
    }
}
