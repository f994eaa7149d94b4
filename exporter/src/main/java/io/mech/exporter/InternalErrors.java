package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Failures inside mech, by component: a part that did not start, a report section or a scrape
 * contribution that threw. Each is counted in {@code mech_internal_errors_total{component}} and
 * the first of each component is one warning, so that a bug shows as a number and a line
 * instead of a probe silently missing, and the other components carry on.
 *
 * <p>Thread-safe: any thread may count; scrapes read the counts. Failures are rare, so a map
 * lookup and a new counter for a component's first are cheap enough.
 */
public final class InternalErrors implements MetricFamilies {

    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    private final Consumer<String> warnings;

    /** @param warnings receives one line for the first failure of each component */
    public InternalErrors(final Consumer<String> warnings) {
        this.warnings = warnings;
    }

    /**
     * Counts one failure.
     *
     * @param component what failed, a short stable name such as {@code start locks} or {@code scrape queues}
     * @param failure   why
     */
    public void failed(final String component, final Throwable failure) {
        final AtomicLong count = counts.computeIfAbsent(component, c -> new AtomicLong());
        if (count.getAndIncrement() == 0) {
            warnings.accept(component + " failed (" + failure + "); the rest of mech carries on");
        }
    }

    /** @return the failures of one component so far */
    public long count(final String component) {
        final AtomicLong count = counts.get(component);
        return count == null ? 0 : count.get();
    }

    @Override
    public List<String> names() {
        return List.of("mech_internal_errors");
    }

    @Override
    public List<MetricSnapshot> collect() {
        final CounterSnapshot.Builder errors = CounterSnapshot.builder().name("mech_internal_errors")
            .help("Failures inside mech by component (a part's start, a report section, a scrape contribution); "
                + "each component's first is also a warning on stderr");
        // One series even without failures, so that a rule can alert on its increase from 0.
        errors.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("component", "none")).value(0).build());
        for (final Map.Entry<String, AtomicLong> entry : counts.entrySet()) {
            errors.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(Labels.of("component", entry.getKey()))
                .value(entry.getValue().get()).build());
        }
        return List.of(errors.build());
    }
}
