package io.mech.exporter;

import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The families of the parts, joined in one source and each kept in its own room: a part that
 * starts after the endpoint did is added once, as it starts, and shows from the next scrape on;
 * a part whose families throw is counted as an internal error and left out of that scrape, and
 * every other part's families are served as usual.
 *
 * <p>Threads: parts are added from whichever thread starts them, scrapes read concurrently;
 * the list is copy-on-write, so a scrape sees each addition whole.
 */
public final class JoinedFamilies implements MetricFamilies {

    private record Named(String name, MetricFamilies families) {
    }

    private final List<Named> sources = new CopyOnWriteArrayList<>();
    /** The family names served so far, guarded by this object's lock, for {@link #add}. */
    private final Set<String> names = new HashSet<>();
    private final InternalErrors errors;

    /** @param errors where a source that throws is counted, as {@code scrape <name>} */
    public JoinedFamilies(final InternalErrors errors) {
        this.errors = errors;
    }

    /**
     * Adds a part's families, asked of the part once. They are collected here once, so that a
     * family name another part already serves fails now, as the part's internal error, and not
     * every scrape after (client_java refuses a scrape with a name twice).
     *
     * @param name     the part's name, for the error count
     * @param families its families
     * @return whether they were added
     */
    public synchronized boolean add(final String name, final List<MetricFamilies> families) {
        final Set<String> theirs = new HashSet<>();
        try {
            for (final MetricFamilies source : families) {
                for (final MetricSnapshot snapshot : source.collect()) {
                    final String family = snapshot.getMetadata().getPrometheusName();
                    if (names.contains(family) || !theirs.add(family)) {
                        throw new IllegalStateException("family " + family + " is served twice");
                    }
                }
            }
        } catch (final RuntimeException e) {
            errors.failed("register " + name, e);
            return false;
        }
        names.addAll(theirs);
        for (final MetricFamilies source : families) {
            sources.add(new Named(name, source));
        }
        return true;
    }

    @Override
    public List<MetricSnapshot> collect() {
        final List<MetricSnapshot> families = new ArrayList<>();
        for (final Named source : sources) {
            try {
                families.addAll(source.families().collect());
            } catch (final RuntimeException e) {
                errors.failed("scrape " + source.name(), e);
            }
        }
        return families;
    }
}
