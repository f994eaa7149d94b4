package io.mech.agent.queues;

import io.mech.probes.queues.QueueAlert;
import io.mech.probes.queues.QueueSnapshot;
import io.mech.probes.queues.QueueStats;
import io.mech.report.Columns;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The queue probe's findings as lines for a person: the report's section and the profiler trigger's reason. */
public final class QueueLines {

    private QueueLines() {
    }

    /**
     * @param snapshot the probe's snapshot
     * @param rows     the most queues to list
     * @return the report's lines: a header, one line per queue, one per alert
     */
    static List<String> of(final QueueSnapshot snapshot, final int rows) {
        final List<String> lines = new ArrayList<>();
        if (!snapshot.installed()) {
            lines.add("queues: not installed");
            return lines;
        }
        lines.add("queues: " + snapshot.queues().size() + " tracked, sampled every " + seconds(snapshot.sampleNanos() / 1e9) + "; left out: "
            + snapshot.jdkInternal() + " of the JDK's or a library's own, " + snapshot.unnamed() + " past the naming rate limit, "
            + snapshot.registryFull() + " past the registry's bound; " + snapshot.released() + " collected");
        if (snapshot.corrected() > 0) {
            lines.add("  depth corrected " + snapshot.corrected() + " times to a queue's own size(): elements moved by a way mech does not"
                + " count (remove(Object), drainTo, clear, an iterator's remove)");
        }
        final List<QueueStats> queues = snapshot.queues();
        rows(queues.subList(0, Math.min(rows, queues.size())), "  ", lines);
        final List<QueueStats> collected = snapshot.collected();
        rows(collected.subList(Math.max(0, collected.size() - rows), collected.size()), "  collected: ", lines);
        for (final QueueAlert alert : snapshot.alerts()) {
            lines.add("  " + describe(alert));
        }
        return lines;
    }

    /**
     * A line per queue; queues made at one site (a pool's per-connection queue, a kernel run
     * twice) say which of that site's they are, so that two rows with one site read as two queues.
     */
    private static void rows(final List<QueueStats> queues, final String prefix, final List<String> lines) {
        final Map<String, Integer> atSite = new HashMap<>();
        for (final QueueStats q : queues) {
            atSite.merge(q.site(), 1, Integer::sum);
        }
        final Map<String, Integer> seen = new HashMap<>();
        for (final QueueStats q : queues) {
            final int of = atSite.get(q.site());
            lines.add(prefix + line(q, of == 1 ? "" : " (" + seen.merge(q.site(), 1, Integer::sum) + " of " + of + " made there)"));
        }
    }

    private static String line(final QueueStats q, final String which) {
        final StringBuilder line = new StringBuilder();
        line.append(q.kind().equals("executor") ? "executor " + q.type() + " (" + q.queueType() + ")" : q.type())
            .append(" at ").append(q.site()).append(which).append(": ");
        line.append(q.depth() < 0 ? "depth ?" : (q.kind().equals("executor") ? "queued " : "depth ") + (q.atLeast() ? ">=" : "") + q.depth());
        if (q.bounded()) {
            line.append('/').append(q.capacity()).append(" (").append(Columns.fixed(q.utilisation() * 100, 0)).append("%)");
        } else {
            line.append(q.capacity() == QueueStats.UNBOUNDED ? ", unbounded" : ", capacity unknown");
        }
        line.append(", max ").append(q.maxDepth());
        if (q.active() >= 0) {
            line.append(", active ").append(q.active());
        }
        line.append(", in ").append(rate(q.enqueueRate())).append(" out ").append(rate(q.dequeueRate()));
        if (!Double.isNaN(q.growthPerSecond())) {
            line.append(", growth ").append(Columns.signed(q.growthPerSecond(), 0)).append("/s");
        }
        line.append(", wait ").append(Double.isNaN(q.waitSeconds()) ? "-" : seconds(q.waitSeconds()));
        if (!q.alerting().isEmpty()) {
            line.append(", BACK PRESSURE (").append(q.alerting()).append(')');
        }
        return line.toString();
    }

    private static String rate(final double perSecond) {
        return Double.isNaN(perSecond) ? "?/s" : Columns.fixed(perSecond, 0) + "/s";
    }

    private static String seconds(final double seconds) {
        return seconds >= 1 ? Columns.fixed(seconds, 2) + " s" : Columns.fixed(seconds * 1e3, 3) + " ms";
    }

    /** @return one line naming the alert's queue, its site and why */
    public static String describe(final QueueAlert alert) {
        final long capacity = alert.capacity();
        final String bound = capacity >= 0 ? alert.depth() + "/" + capacity + " (" + Columns.fixed(alert.utilisation() * 100, 0) + "%)"
            : alert.depth() + (capacity == QueueStats.UNBOUNDED ? ", unbounded" : ", capacity unknown")
              + (Double.isNaN(alert.growthPerSecond()) ? "" : " (" + Columns.signed(alert.growthPerSecond(), 0) + "/s)");
        return "back pressure: " + alert.kind() + " " + alert.type() + " at " + alert.site() + " " + alert.reason() + ", depth " + bound;
    }
}
