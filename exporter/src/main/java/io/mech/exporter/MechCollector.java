package io.mech.exporter;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.List;

/** Adapts mech's {@link MetricFamilies} to client_java's registry. */
final class MechCollector implements MultiCollector {

    private final List<MetricFamilies> sources;

    MechCollector(final List<MetricFamilies> sources) {
        this.sources = List.copyOf(sources);
    }

    @Override
    public MetricSnapshots collect() {
        final List<MetricSnapshot> all = new ArrayList<>();
        for (final MetricFamilies source : sources) {
            all.addAll(source.collect());
        }
        return new MetricSnapshots(all);
    }
}
