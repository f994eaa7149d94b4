package io.mech.agent.locks;

import io.mech.probes.locks.Inflation;
import io.mech.probes.locks.JucContention;
import io.mech.probes.locks.LockKind;
import io.mech.probes.locks.LockSite;
import io.mech.probes.locks.LockSnapshot;
import io.mech.probes.locks.ThreadCount;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                s.kind() == LockKind.PINNED ? "%s (%s) at %s: %d %s, %.3f ms total" : "%s on %s at %s: %d %s, %.3f ms total",
                s.kind().label(), s.lockClass(), s.callSite(), s.count(), unit(snapshot, s.kind()), s.totalNanos() / 1e6));
            // a sample knows no block's length
            if (snapshot.source() != LockSnapshot.Source.SAMPLED) {
                line.append(String.format(Locale.ROOT, ", max %.3f ms", s.maxNanos() / 1e6));
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
            lines.add(String.format(Locale.ROOT, "contended %s%s: %d acquisitions, %.3f ms total, max %.3f ms",
                c.lockClass(), c.mode().isEmpty() ? "" : " (" + c.mode() + ")", c.count(),
                c.totalNanos() / 1e6, c.maxNanos() / 1e6));
        }
        n = 0;
        for (final Inflation i : snapshot.inflations()) {
            if (n++ == top) {
                break;
            }
            lines.add(String.format(Locale.ROOT, "inflated %s: %d (%s, %s)", i.monitorClass(), i.count(), i.cause(),
                i.byWait() ? "wait/notify, not contention" : "contention or other"));
        }
        if (snapshot.deflations() > 0 || snapshot.monitorsInUse() >= 0) {
            lines.add(String.format(Locale.ROOT, "monitors: %d deflated, %d in use", snapshot.deflations(), snapshot.monitorsInUse()));
        }
        if (snapshot.droppedRows() > 0) {
            lines.add("lock rows dropped (tables full): " + snapshot.droppedRows());
        }
        return lines;
    }
}
