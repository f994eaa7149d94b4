package io.mech.agent;

import io.mech.agent.report.Section;
import io.mech.exporter.MetricFamilies;
import io.mech.exporter.QueueFamilies;
import io.mech.exporter.jfr.QueueBackPressureEvents;
import io.mech.probes.queues.QueueProbe;
import io.mech.probes.queues.QueueSettings;
import io.mech.probes.queues.QueueSnapshot;
import io.mech.probes.queues.QueueStats;
import io.mech.probes.profiler.TriggerSource;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The queue probe as a {@link Part}. */
final class QueuePart implements Part {

    /** Queues a report lists, deepest first. */
    private static final int ROWS = 20;

    private final QueueProbe probe;

    private QueuePart(final QueueProbe probe) {
        this.probe = probe;
    }

    /**
     * Starts the probe as the options say.
     *
     * @param now weave before returning: under -javaagent, so that the queues the host creates
     *            first are seen
     * @return the part, or null when it could not start (it warned)
     */
    static QueuePart start(final Options options, final Instrumentation instrumentation, final boolean now) {
        final QueueSettings settings;
        try {
            settings = new QueueSettings(FalseSharingPart.include(options.text(Option.PROBES_QUEUES_INCLUDE)),
                options.nanos(Option.PROBES_QUEUES_SAMPLE), options.fraction(Option.PROBES_QUEUES_ALERT),
                options.count(Option.PROBES_QUEUES_DEEP));
        } catch (final IllegalArgumentException e) {
            Console.warn(e.getMessage() + "; no queue probe");
            return null;
        }
        final QueueProbe probe = QueueProbe.start(instrumentation, settings, now, Console.WARNINGS);
        if (probe == null) {
            return null;
        }
        probe.addListener(new QueueBackPressureEvents());
        return new QueuePart(probe);
    }

    /** Back-pressure alerts. */
    @Override
    public List<TriggerSource> triggers() {
        return List.of(ProfilerTriggers.queue(probe));
    }

    @Override
    public String name() {
        return "queues";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new QueueFamilies(probe::snapshot));
    }

    @Override
    public Section section() {
        final QueueSnapshot now = probe.snapshot();
        final List<Map<String, Object>> rows = new ArrayList<>();
        for (final QueueStats q : now.queues()) {
            rows.add(row(q, false));
        }
        for (final QueueStats q : now.collected()) {
            rows.add(row(q, true));
        }
        return new Section("queues", now.render(ROWS), rows);
    }

    /** A queue's figures for tools; a collected queue's are its last sample's. */
    private static Map<String, Object> row(final QueueStats q, final boolean collected) {
        final Map<String, Object> row = new LinkedHashMap<>();
        row.put("kind", q.kind());
        row.put("type", q.type());
        row.put("queue_type", q.queueType());
        row.put("site", q.site());
        row.put("depth", q.depth());
        row.put("at_least", q.atLeast());
        row.put("max_depth", q.maxDepth());
        putNumber(row, "mean_depth", q.meanDepth());
        // a bound, or none: "unbounded", or "unknown" where the queue's contract gives none mech can read
        row.put("bound", q.bound());
        if (q.bounded()) {
            row.put("capacity", q.capacity());
            row.put("remaining", q.remaining());
        }
        putNumber(row, "utilization", q.utilisation());
        row.put("enqueued", q.enqueued());
        row.put("dequeued", q.dequeued());
        putNumber(row, "enqueue_rate", q.enqueueRate());
        putNumber(row, "dequeue_rate", q.dequeueRate());
        putNumber(row, "growth_per_s", q.growthPerSecond());
        putNumber(row, "wait_ms", q.waitSeconds() * 1e3);
        row.put("window_s", q.windowSeconds());
        row.put("active", q.active());
        row.put("alerting", q.alerting());
        row.put("alerts", q.alerts());
        row.put("samples", q.samples());
        row.put("collected", collected);
        return row;
    }

    /** JSON has no NaN: an unknown figure is left out of the row. */
    private static void putNumber(final Map<String, Object> row, final String key, final double value) {
        if (!Double.isNaN(value) && !Double.isInfinite(value)) {
            row.put(key, value);
        }
    }

    @Override
    public void settle(final long deadline) {
        probe.sampleNow();
    }
}
