package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

    /**
     * The family's metadata and its one constant series, made at the first scrape rather than with
     * the counts, which mech makes on the host's thread before main: client_java's metadata, made
     * interpreted there, took 14 ms of a hello world's start-up. Immutable, so a scrape that reads
     * it unset and makes its own publishes it safely.
     */
    private volatile Family family;
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();
    /** Allocated at start: counting must not need memory when there is none. */
    private final AtomicLong outOfMemory = new AtomicLong();
    private final Consumer<String> warnings;

    /** @param warnings receives one line for the first failure of each component */
    public InternalErrors(final Consumer<String> warnings) {
        this.warnings = warnings;
    }

    /**
     * Counts one failure; never throws, for it is called where something already went wrong. An
     * {@link OutOfMemoryError} is counted without a warning: under a full heap the host's own
     * errors are the story, and a line of mech's would be one more allocation and noise on the
     * host's stderr; the report and {@code /metrics} tell it instead.
     *
     * @param component what failed, a short stable name such as {@code start locks} or {@code scrape queues}
     * @param failure   why
     */
    public void failed(final String component, final Throwable failure) {
        final boolean memory = outOfMemory(failure);
        try {
            final AtomicLong count = counts.computeIfAbsent(component, c -> new AtomicLong());
            if (count.getAndIncrement() == 0 && !memory) {
                warnings.accept(component + " failed (" + failure + "); the rest of mech carries on");
            }
        } catch (final Throwable lost) {
            // No memory to count it by component: the count below still has it when it is memory.
        }
        if (memory) {
            outOfMemory.incrementAndGet();
        }
    }

    /**
     * Whether a failure came of a full heap: an {@link OutOfMemoryError}, or what one left behind,
     * such as a class whose initialisation it cut short ({@code ExceptionInInitializerError}, then
     * {@code NoClassDefFoundError: Could not initialize class}, which names the first error in its
     * cause from JDK 18 on and in its message never).
     */
    private static boolean outOfMemory(final Throwable failure) {
        Throwable at = failure;
        for (int depth = 0; at != null && depth < 8; depth++, at = at.getCause()) {
            if (at instanceof OutOfMemoryError) {
                return true;
            }
            final String message = at.getMessage();
            if (message != null && message.contains("OutOfMemoryError")) {
                return true;
            }
        }
        return false;
    }

    /** @return the out-of-memory errors mech met, in every component, for the report */
    public long outOfMemory() {
        return outOfMemory.get();
    }

    /** @return each component that failed with its count, such as {@code hiccup x3, mech-report x1}; empty when none did */
    public String summary() {
        final StringBuilder summary = new StringBuilder();
        for (final Map.Entry<String, AtomicLong> entry : new TreeMap<>(counts).entrySet()) {
            summary.append(summary.length() == 0 ? "" : ", ").append(entry.getKey()).append(" x").append(entry.getValue().get());
        }
        return summary.toString();
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
        Family made = family;
        if (made == null) {
            made = new Family(Metadata.counter("mech_internal_errors", null,
                "Failures inside mech by component (a part's start, a report section, a scrape contribution); "
                    + "each component's first is also a warning on stderr"), Labels.of("component", "none"));
            family = made;
        }
        final List<CounterSnapshot.CounterDataPointSnapshot> errors = new ArrayList<>(counts.size() + 1);
        // One series even without failures, so that a rule can alert on its increase from 0.
        errors.add(OnePoint.counterPoint(made.none, 0));
        for (final Map.Entry<String, AtomicLong> entry : counts.entrySet()) {
            errors.add(OnePoint.counterPoint(Labels.of("component", LabelWords.of(entry.getKey())), entry.getValue().get()));
        }
        return List.of(new CounterSnapshot(made.metadata, errors));
    }

    /** The family's metadata and its series with no component. */
    private record Family(MetricMetadata metadata, Labels none) {
    }
}
