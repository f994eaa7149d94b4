package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.function.Supplier;

/**
 * The contract between the exporter and each source of measurements: at every scrape, turn the
 * source's current snapshot into metric families. Implementations must not block the source's
 * own threads and may be called from several scrape threads at once.
 */
public interface MetricFamilies {

    /**
     * The Prometheus names of the families {@link #collect} may return (a counter's without
     * {@code _total}), fixed for the source's life. Declared before the first scrape, as a
     * client_java collector declares its names at registration: a name another source already
     * serves is refused when the second is added, never on a live scrape.
     */
    List<String> names();

    /**
     * The families as they stand now, each under a name from {@link #names}; mech's own names
     * start with {@code mech_}, and {@link ProcessFamilies} serves the standard {@code process_} ones.
     */
    List<MetricSnapshot> collect();

    /**
     * A source from its names and a collection.
     *
     * @param names   what {@link #names} returns
     * @param collect what {@link #collect} returns
     * @return the source
     */
    static MetricFamilies of(final List<String> names, final Supplier<List<MetricSnapshot>> collect) {
        final List<String> declared = List.copyOf(names);
        return new MetricFamilies() {
            @Override
            public List<String> names() {
                return declared;
            }

            @Override
            public List<MetricSnapshot> collect() {
                return collect.get();
            }
        };
    }
}
