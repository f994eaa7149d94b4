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
 * <p>A part's families are admitted as it is added, by the names they declare
 * ({@link MetricFamilies#names}): a name that another part already serves, or one declared twice,
 * refuses that source for good and is counted ({@code register <part>}), instead of failing every
 * scrape (client_java refuses a scrape with a name twice). A family a source returns under a name
 * it did not declare is left out of the scrape and counted ({@code scrape <part>}), so that a
 * source cannot break the scrape by what it returns either.
 *
 * <p>Threads: parts are added from whichever thread starts them; scrapes collect concurrently.
 * Admission runs under this object's lock; the admitted sources are a copy-on-write list of
 * immutable entries, so a scrape sees each admission whole.
 */
public final class JoinedFamilies implements MetricFamilies {

    private record Admitted(String part, MetricFamilies families, Set<String> names) {
    }

    private final List<Admitted> sources = new CopyOnWriteArrayList<>();
    /** The family names admitted so far; guarded by this object's lock. */
    private final Set<String> names = new HashSet<>();
    private final InternalErrors errors;

    /** @param errors where a source that throws or repeats a name is counted */
    public JoinedFamilies(final InternalErrors errors) {
        this.errors = errors;
    }

    /**
     * Adds a part's families, asked of the part once, admitting each source whose declared names
     * are all new.
     *
     * @param part     the part's name, for the error count
     * @param families its families
     */
    public synchronized void add(final String part, final List<MetricFamilies> families) {
        for (final MetricFamilies source : families) {
            final Set<String> declared = new HashSet<>();
            String repeated = null;
            try {
                for (final String name : source.names()) {
                    if (names.contains(name) || !declared.add(name)) {
                        repeated = name;
                    }
                }
            } catch (final RuntimeException e) {
                errors.failed("register " + part, e);
                continue;
            }
            if (repeated != null) {
                errors.failed("register " + part, new IllegalStateException("family " + repeated + " is served twice"));
                continue;
            }
            // the names last: a part a full heap cut short here is added again, and must not find its own names served
            final Admitted admitted = new Admitted(part, source, Set.copyOf(declared));
            sources.add(admitted);
            names.addAll(declared);
        }
    }

    /** @return every admitted name; it changes as parts are added */
    @Override
    public synchronized List<String> names() {
        return List.copyOf(names);
    }

    @Override
    public List<MetricSnapshot> collect() {
        final List<MetricSnapshot> families = new ArrayList<>();
        for (final Admitted source : sources) {
            final List<MetricSnapshot> theirs;
            try {
                theirs = source.families().collect();
            } catch (final RuntimeException e) {
                errors.failed("scrape " + source.part(), e);
                continue;
            }
            for (final MetricSnapshot family : theirs) {
                final String name = family.getMetadata().getPrometheusName();
                if (source.names().contains(name)) {
                    families.add(family);
                } else {
                    errors.failed("scrape " + source.part(), new IllegalStateException("family " + name + " was not declared"));
                }
            }
        }
        return families;
    }
}
