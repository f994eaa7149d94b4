package io.mech.agent.locks;

import io.mech.probes.locks.Inflation;
import io.mech.probes.locks.JucContention;
import io.mech.probes.locks.LockKind;
import io.mech.probes.locks.LockSite;
import io.mech.probes.locks.LockSnapshot;
import io.mech.probes.locks.ThreadCount;
import io.mech.report.Columns;
import java.util.ArrayList;
import java.util.List;

/** The lock probe's findings as lines for a person: the report's locks section. */
final class LockLines {

    private LockLines() {
    }

    /** What a row of the given kind counts. */
    private static String unit(final LockSnapshot snapshot, final LockKind kind) {
        if (snapshot.source() == LockSnapshot.Source.SAMPLED) {
            return "samples";
        }
        return kind == LockKind.MONITOR_WAIT || kind == LockKind.JUC_WAIT ? "waits" : kind == LockKind.PINNED ? "pins" : "blocks";
    }

    /**
     * The report's locks section: one line per row, the {@code top} heaviest of each table.
     *
     * @param snapshot the probe's snapshot
     * @param top      rows per table at most
     * @return lines without line breaks; empty when nothing was seen
     */
    static List<String> of(final LockSnapshot snapshot, final int top) {
        final List<String> lines = new ArrayList<>();
        int n = 0;
        for (final LockSite s : snapshot.sites()) {
            if (n++ == top) {
                break;
            }
            final StringBuilder line = new StringBuilder(s.kind().label())
                .append(s.kind() == LockKind.PINNED ? " (" + s.lockClass() + ")" : " on " + s.lockClass()).append(" at ").append(s.callSite())
                .append(": ").append(s.count()).append(' ').append(unit(snapshot, s.kind())).append(", ")
                .append(Columns.fixed(s.totalNanos() / 1e6, 3)).append(" ms total");
            // a sample knows no block's length
            if (snapshot.source() != LockSnapshot.Source.SAMPLED) {
                line.append(", max ").append(Columns.fixed(s.maxNanos() / 1e6, 3)).append(" ms");
            }
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
        for (final JucContention c : snapshot.belowThreshold()) {
            if (n++ == top) {
                break;
            }
            lines.add("contended " + c.lockClass() + (c.mode().isEmpty() ? "" : " (" + c.mode() + ")") + ": " + c.count()
                + " acquisitions, " + Columns.fixed(c.totalNanos() / 1e6, 3) + " ms total, max " + Columns.fixed(c.maxNanos() / 1e6, 3) + " ms");
        }
        n = 0;
        for (final Inflation i : snapshot.inflations()) {
            if (n++ == top) {
                break;
            }
            lines.add("inflated " + i.monitorClass() + ": " + i.count() + " (" + i.cause() + ", "
                + (i.byWait() ? "wait/notify, not contention" : "contention or other") + ")");
        }
        if (snapshot.deflations() > 0 || snapshot.monitorsInUse() >= 0) {
            lines.add("monitors: " + snapshot.deflations() + " deflated, " + snapshot.monitorsInUse() + " in use");
        }
        if (snapshot.droppedRows() > 0) {
            lines.add("lock rows dropped (tables full): " + snapshot.droppedRows());
        }
        return lines;
    }
}
