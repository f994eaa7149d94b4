package io.mech.probes.locks;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What the lock probe has seen since it started. Immutable; lists are sorted, the heaviest first.
 *
 * @param source         where the blocking rows come from
 * @param thresholdNanos the shortest monitor enter, wait and j.u.c. park JFR reports;
 *                       for {@link Source#SAMPLED} the shortest time between samples (longer where dumps are slow)
 * @param counting       whether every contended j.u.c. acquisition is counted ({@link #belowThreshold()})
 * @param sites          blocking by kind, lock class and call site, by total time
 * @param belowThreshold contended j.u.c. acquisitions of any length, by count; empty when not counting
 * @param inflations     monitor inflations by class and cause, by count
 * @param deflations     monitor deflations seen (JDK 25's jdk.JavaMonitorDeflate), 0 before
 * @param monitorsInUse  in-use monitors at the last jdk.JavaMonitorStatistics (JDK 25), -1 if none
 * @param droppedRows    events not aggregated because the row tables were full
 */
public record LockSnapshot(Source source, long thresholdNanos, boolean counting, List<LockSite> sites,
                           List<JucContention> belowThreshold, List<Inflation> inflations, long deflations,
                           long monitorsInUse, long droppedRows) {

    /** Where the rows of {@link #sites()} come from. */
    public enum Source {
        /** JFR events: exact blocks at or above the threshold, with call sites. */
        JFR,
        /**
         * No JFR: ThreadMXBean samples of blocked threads; count is the number of samples, and each
         * sample adds the time since the one before to the total, the maximum and the histogram,
         * so those two tell how samples were spaced, not how long a block lasted; there are no
         * inflations.
         */
        SAMPLED
    }

    /** Validates and copies. */
    public LockSnapshot {
        Objects.requireNonNull(source, "source");
        sites = List.copyOf(sites);
        belowThreshold = List.copyOf(belowThreshold);
        inflations = List.copyOf(inflations);
    }

    /**
     * The lock classes threads contended for: a contention row from JFR, or at least
     * {@code minCounted} contended j.u.c. acquisitions counted below the threshold.
     *
     * @param minCounted how many counted acquisitions make a j.u.c. lock class contended
     * @return class names, heaviest first
     */
    public Set<String> contendedClasses(final long minCounted) {
        final Set<String> classes = new LinkedHashSet<>();
        for (final LockSite site : sites) {
            if (site.kind().isContention()) {
                classes.add(site.lockClass());
            }
        }
        for (final JucContention c : belowThreshold) {
            if (c.count() >= minCounted) {
                classes.add(c.lockClass());
            }
        }
        return classes;
    }

    /** @return the classes of inflated monitors, for any cause, most inflations first */
    public Set<String> inflatedClasses() {
        final Set<String> classes = new LinkedHashSet<>();
        for (final Inflation inflation : inflations) {
            classes.add(inflation.monitorClass());
        }
        return classes;
    }
}
