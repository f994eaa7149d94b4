package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The families of sources that may start after the endpoint did: the sources are asked for at
 * every scrape, so a probe that starts later shows from the next scrape on.
 */
public final class JoinedFamilies implements MetricFamilies {

    private final Supplier<List<MetricFamilies>> sources;

    /** @param sources the sources running now; called once per scrape, from scrape threads */
    public JoinedFamilies(final Supplier<List<MetricFamilies>> sources) {
        this.sources = sources;
    }

    @Override
    public List<MetricSnapshot> collect() {
        final List<MetricSnapshot> families = new ArrayList<>();
        for (final MetricFamilies source : sources.get()) {
            families.addAll(source.collect());
        }
        return families;
    }
}
