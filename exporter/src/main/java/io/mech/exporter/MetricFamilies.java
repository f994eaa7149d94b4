package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;

/**
 * The contract between the exporter and each source of measurements: at every scrape, turn the
 * source's current snapshot into metric families. Implementations must not block the source's
 * own threads and may be called from several scrape threads at once.
 */
public interface MetricFamilies {

    /** The families as they stand now; names follow Prometheus conventions and start with {@code mech_}. */
    List<MetricSnapshot> collect();
}
