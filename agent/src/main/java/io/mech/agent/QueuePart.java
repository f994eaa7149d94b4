package io.mech.agent;

import io.mech.exporter.MetricFamilies;
import io.mech.exporter.QueueFamilies;
import io.mech.exporter.jfr.QueueBackPressureEvents;
import io.mech.probes.queues.QueueProbe;
import io.mech.probes.queues.QueueSettings;
import io.mech.probes.queues.QueueSnapshot;
import io.mech.probes.queues.QueueStats;
import io.mech.probes.profiler.TriggerSource;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

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
        final List<ReportRow> rows = new ArrayList<>();
        now.queues().forEach(q -> rows.add(new QueueRow(q, false)));
        now.collected().forEach(q -> rows.add(new QueueRow(q, true)));
        return new Section("queues", now.render(ROWS), rows);
    }

    /**
     * A queue's figures for tools; a collected queue's are its last sample's. Figures that are
     * unknown (NaN) are left out of the row, for JSON has no NaN.
     */
    record QueueRow(QueueStats q, boolean collected) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("kind", q.kind()).field("type", q.type()).field("queue_type", q.queueType()).field("site", q.site())
                .field("depth", q.depth()).field("at_least", q.atLeast()).field("max_depth", q.maxDepth())
                .fieldIfKnown("mean_depth", q.meanDepth())
                // a bound, or none: "unbounded", or "unknown" where the queue's contract gives none mech can read
                .field("bound", q.bound());
            if (q.bounded()) {
                json.field("capacity", q.capacity()).field("remaining", q.remaining());
            }
            json.fieldIfKnown("utilization", q.utilisation()).field("enqueued", q.enqueued()).field("dequeued", q.dequeued())
                .fieldIfKnown("enqueue_rate", q.enqueueRate()).fieldIfKnown("dequeue_rate", q.dequeueRate())
                .fieldIfKnown("growth_per_s", q.growthPerSecond()).fieldIfKnown("wait_ms", q.waitSeconds() * 1e3)
                .field("window_s", q.windowSeconds()).field("active", q.active()).field("alerting", q.alerting())
                .field("alerts", q.alerts()).field("samples", q.samples()).field("collected", collected);
        }
    }

    @Override
    public void settle(final long deadline) {
        probe.sampleNow();
    }
}
