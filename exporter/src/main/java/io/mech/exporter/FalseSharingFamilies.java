package io.mech.exporter;

import io.mech.probes.falsesharing.FalseSharingSnapshot;
import io.mech.probes.falsesharing.Verdict;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.function.Supplier;

/**
 * The false-sharing probe's verdicts and layout candidates. Before the window ends the score
 * family has no samples; after it the figures stay as the window left them.
 */
public final class FalseSharingFamilies implements MetricFamilies {

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
        final GaugeSnapshot.Builder score = GaugeSnapshot.builder().name("mech_falsesharing_score")
            .help("Per verdict of the last window: the lower of the two access rates (per second) times the probability of one line");
        for (final Verdict v : now.verdicts()) {
            score.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                .labels(Labels.of("verdict", LabelWords.of(v.kind().label()), "class", v.className(), "fields", String.join(",", v.fields())))
                .value(v.score()).build());
        }
        final GaugeSnapshot.Builder candidates = GaugeSnapshot.builder().name("mech_falsesharing_candidate_pairs")
            .help("Pairs of non-final fields of the included classes that may share a line (same-line) or sit on neighbouring lines");
        candidates.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("distance", "same_line"))
            .value(now.sameLineCandidates()).build());
        candidates.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("distance", "adjacent_line"))
            .value(now.adjacentLineCandidates()).build());
        final GaugeSnapshot woven = GaugeSnapshot.builder().name("mech_falsesharing_woven_classes")
            .help("Classes the window wove counting into; 0 before the window")
            .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(now.woven()).build()).build();
        return List.of(score.build(), candidates.build(), woven);
    }
}
