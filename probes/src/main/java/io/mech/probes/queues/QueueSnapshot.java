package io.mech.probes.queues;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the queue probe knows at one moment: every registered queue, deepest and fastest-growing
 * first, the back-pressure episodes raised so far, and what the registry left out.
 *
 * @param installed     whether the weaving is in place (false before, or when it failed)
 * @param sampleNanos   the sample period
 * @param queues        the registered queues and executors, deepest first, then fastest-growing
 * @param collected     the last figures of queues garbage collected since, oldest first (at most {@link #MAX_COLLECTED})
 * @param alerts        the latest back-pressure episodes, oldest first (at most {@link #MAX_ALERTS})
 * @param jdkInternal   queues created with no application frame on the stack (the JDK's own), or by another
 *                      library queue's constructor (a part of it): left out
 * @param unnamed       queues created while the stack-walk rate limit was spent: left out
 * @param registryFull  queues left out because the registry was full
 * @param released      queues dropped from the registry after they were garbage collected
 */
public record QueueSnapshot(boolean installed, long sampleNanos, List<QueueStats> queues, List<QueueStats> collected,
                            List<QueueAlert> alerts,
                            long jdkInternal, long unnamed, long registryFull, long released) {

    /** Alerts a snapshot keeps. */
    public static final int MAX_ALERTS = 64;
    /** Collected queues a snapshot keeps. */
    public static final int MAX_COLLECTED = 32;

    /** Copies. */
    public QueueSnapshot {
        queues = List.copyOf(queues);
        collected = List.copyOf(collected);
        alerts = List.copyOf(alerts);
    }

    /**
     * @param rows the most queues to list
     * @return the report's lines: a header, one line per queue, one per alert
     */
    public List<String> render(final int rows) {
        final List<String> lines = new ArrayList<>();
        if (!installed) {
            lines.add("queues: not installed");
            return lines;
        }
        lines.add(String.format(Locale.ROOT, "queues: %d tracked, sampled every %s; left out: %d of the JDK's or a library's own, %d past the naming rate limit, %d past the registry's bound; %d collected",
            queues.size(), seconds(sampleNanos / 1e9), jdkInternal, unnamed, registryFull, released));
        for (int i = 0; i < Math.min(rows, queues.size()); i++) {
            lines.add("  " + line(queues.get(i)));
        }
        for (int i = Math.max(0, collected.size() - rows); i < collected.size(); i++) {
            lines.add("  collected: " + line(collected.get(i)));
        }
        for (final QueueAlert alert : alerts) {
            lines.add("  " + alert.describe());
        }
        return lines;
    }

    private static String line(final QueueStats q) {
        final StringBuilder line = new StringBuilder();
        line.append(q.kind().equals("executor") ? "executor " + q.type() + " (" + q.queueType() + ")" : q.type())
            .append(" at ").append(q.site()).append(": ");
        line.append(q.depth() < 0 ? "depth ?" : (q.kind().equals("executor") ? "queued " : "depth ") + (q.atLeast() ? ">=" : "") + q.depth());
        if (q.bounded()) {
            line.append('/').append(q.capacity()).append(String.format(Locale.ROOT, " (%.0f%%)", q.utilisation() * 100));
        } else {
            line.append(q.capacity() == QueueStats.UNBOUNDED ? ", unbounded" : ", capacity unknown");
        }
        line.append(", max ").append(q.maxDepth());
        if (q.active() >= 0) {
            line.append(", active ").append(q.active());
        }
        line.append(", in ").append(rate(q.enqueueRate())).append(" out ").append(rate(q.dequeueRate()));
        if (!Double.isNaN(q.growthPerSecond())) {
            line.append(String.format(Locale.ROOT, ", growth %+.0f/s", q.growthPerSecond()));
        }
        line.append(", wait ").append(Double.isNaN(q.waitSeconds()) ? "-" : seconds(q.waitSeconds()));
        if (!q.alerting().isEmpty()) {
            line.append(", BACK PRESSURE (").append(q.alerting()).append(')');
        }
        return line.toString();
    }

    private static String rate(final double perSecond) {
        return Double.isNaN(perSecond) ? "?/s" : String.format(Locale.ROOT, "%.0f/s", perSecond);
    }

    private static String seconds(final double seconds) {
        return seconds >= 1 ? String.format(Locale.ROOT, "%.2f s", seconds) : String.format(Locale.ROOT, "%.3f ms", seconds * 1e3);
    }
}
