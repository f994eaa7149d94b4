package io.mech.probes.locks;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * What the lock probe has seen since it started. Immutable; lists are sorted, the heaviest first.
 *
 * @param source         where the blocking rows come from
 * @param thresholdNanos the shortest monitor enter, wait and j.u.c. park JFR reports;
 *                       for {@link Source#SAMPLED} the sampling period
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
         * No JFR: ThreadMXBean samples of blocked threads; count is the number of samples, times
         * are samples times the period, maxima are unknown (0), and there are no inflations.
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

    /** What a row of the given kind counts. */
    private String unit(final LockKind kind) {
        if (source == Source.SAMPLED) {
            return "samples";
        }
        return kind == LockKind.MONITOR_WAIT ? "waits" : kind == LockKind.PINNED ? "pins" : "blocks";
    }

    /**
     * The report's locks section: one line per row, the {@code top} heaviest of each table.
     *
     * @param top rows per table at most
     * @return lines without line breaks; empty when nothing was seen
     */
    public List<String> render(final int top) {
        final List<String> lines = new ArrayList<>();
        int n = 0;
        for (final LockSite s : sites) {
            if (n++ == top) {
                break;
            }
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                s.kind() == LockKind.PINNED ? "%s (%s) at %s: %d %s, %.3f ms total, max %.3f ms" : "%s on %s at %s: %d %s, %.3f ms total, max %.3f ms",
                s.kind().label(), s.lockClass(), s.callSite(), s.count(), unit(s.kind()), s.totalNanos() / 1e6, s.maxNanos() / 1e6));
            if (!s.topThreads().isEmpty()) {
                line.append(s.kind() == LockKind.MONITOR_WAIT ? "; notified by " : "; held by ");
                for (int i = 0; i < s.topThreads().size() && i < 3; i++) {
                    final ThreadCount t = s.topThreads().get(i);
                    line.append(i == 0 ? "" : ", ").append(t.thread()).append(" x").append(t.count());
                }
            }
            line.append(". ").append(s.kind().reading());
            lines.add(line.toString());
        }
        n = 0;
        for (final JucContention c : belowThreshold) {
            if (n++ == top) {
                break;
            }
            lines.add(String.format(Locale.ROOT, "contended %s%s: %d acquisitions, %.3f ms total, max %.3f ms",
                c.lockClass(), c.mode().isEmpty() ? "" : " (" + c.mode() + ")", c.count(),
                c.totalNanos() / 1e6, c.maxNanos() / 1e6));
        }
        n = 0;
        for (final Inflation i : inflations) {
            if (n++ == top) {
                break;
            }
            lines.add(String.format(Locale.ROOT, "inflated %s: %d (%s, %s)", i.monitorClass(), i.count(), i.cause(),
                i.byWait() ? "wait/notify, not contention" : "contention or other"));
        }
        if (deflations > 0 || monitorsInUse >= 0) {
            lines.add(String.format(Locale.ROOT, "monitors: %d deflated, %d in use", deflations, monitorsInUse));
        }
        if (droppedRows > 0) {
            lines.add("lock rows dropped (tables full): " + droppedRows);
        }
        return lines;
    }
}
