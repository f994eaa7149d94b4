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
 * <p>A part's families are admitted at the first scrape after it was added: collected once there
 * to learn their names, so that a name another part already serves, or one that throws then, is
 * refused for good and counted ({@code register <part>}), instead of failing that scrape and
 * every later one (client_java refuses a scrape with a name twice). Adding costs nothing, so a
 * short-lived host's parts are in its report however early it exits.
 *
 * <p>Threads: parts are added from whichever thread starts them; scrapes collect concurrently.
 * Admission runs under this object's lock; the admitted sources are a copy-on-write list, so a
 * scrape sees each admission whole.
 */
public final class JoinedFamilies implements MetricFamilies {

    private record Named(String name, MetricFamilies families) {
    }

    private final List<Named> pending = new CopyOnWriteArrayList<>();
    private final List<Named> sources = new CopyOnWriteArrayList<>();
    /** The family names admitted so far; guarded by this object's lock. */
    private final Set<String> names = new HashSet<>();
    private final InternalErrors errors;

    /** @param errors where a source that throws or repeats a name is counted */
    public JoinedFamilies(final InternalErrors errors) {
        this.errors = errors;
    }

    /**
     * Adds a part's families, asked of the part once.
     *
     * @param name     the part's name, for the error count
     * @param families its families
     */
    public void add(final String name, final List<MetricFamilies> families) {
        for (final MetricFamilies source : families) {
            pending.add(new Named(name, source));
        }
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
        // after the admitted ones: a source admitted now serves its first collection, once
        if (!pending.isEmpty()) {
            admit(families);
        }
        return families;
    }

    /** Admits the pending sources whose names are new, adding their first collection to this scrape's. */
    private synchronized void admit(final List<MetricSnapshot> scraped) {
        for (final Named source : pending) {
            pending.remove(source);
            final List<MetricSnapshot> first;
            try {
                first = source.families().collect();
            } catch (final RuntimeException e) {
                errors.failed("register " + source.name(), e);
                continue;
            }
            final Set<String> theirs = new HashSet<>();
            String repeated = null;
            for (final MetricSnapshot snapshot : first) {
                final String family = snapshot.getMetadata().getPrometheusName();
                if (names.contains(family) || !theirs.add(family)) {
                    repeated = family;
                }
            }
            if (repeated != null) {
                errors.failed("register " + source.name(), new IllegalStateException("family " + repeated + " is served twice"));
                continue;
            }
            names.addAll(theirs);
            sources.add(source);
            scraped.addAll(first);
        }
    }
}
