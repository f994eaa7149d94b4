package io.mech.exporter;

import io.mech.probes.falsesharing.FalseSharingSnapshot;
import io.mech.probes.falsesharing.Verdict;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The false-sharing probe's verdicts and layout candidates. Before the window ends the score
 * family has no samples; after it the figures stay as the window left them.
 */
public final class FalseSharingFamilies implements MetricFamilies {

    private final MetricMetadata scoreFamily = Metadata.gauge("mech_falsesharing_score", null,
        "Per verdict of the last window: the lower of the two access rates (per second) times the probability of one line");
    private final MetricMetadata candidatesFamily = Metadata.gauge("mech_falsesharing_candidate_pairs", null,
        "Pairs of non-final fields of the included classes that may share a line (same-line) or sit on neighbouring lines");
    private final MetricMetadata wovenFamily = Metadata.gauge("mech_falsesharing_woven_classes", null,
        "Classes the window wove counting into; 0 before the window");
    private final Labels sameLineLabels = Labels.of("distance", "same_line");
    private final Labels adjacentLineLabels = Labels.of("distance", "adjacent_line");

    private final Supplier<FalseSharingSnapshot> snapshot;

    /** @param snapshot the probe's current snapshot */
    public FalseSharingFamilies(final Supplier<FalseSharingSnapshot> snapshot) {
        this.snapshot = snapshot;
    }

    @Override
    public List<String> names() {
        return List.of("mech_falsesharing_score", "mech_falsesharing_candidate_pairs", "mech_falsesharing_woven_classes");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final FalseSharingSnapshot now = snapshot.get();
        final List<GaugeSnapshot.GaugeDataPointSnapshot> score = new ArrayList<>(now.verdicts().size());
        for (final Verdict v : now.verdicts()) {
            score.add(OnePoint.gaugePoint(
                Labels.of("verdict", LabelWords.of(v.kind().label()), "class", v.className(), "fields", String.join(",", v.fields())), v.score()));
        }
        final GaugeSnapshot candidates = new GaugeSnapshot(candidatesFamily, List.of(OnePoint.gaugePoint(sameLineLabels, now.sameLineCandidates()),
            OnePoint.gaugePoint(adjacentLineLabels, now.adjacentLineCandidates())));
        return List.of(new GaugeSnapshot(scoreFamily, score), candidates, OnePoint.gauge(wovenFamily, now.woven()));
    }
}
