package io.mech.agent.queues;

import io.mech.agent.options.IncludedPackages;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.Part;
import io.mech.agent.runtime.PartContext;
import io.mech.agent.runtime.PartSpec;
import io.mech.exporter.MetricFamilies;
import io.mech.exporter.QueueFamilies;
import io.mech.exporter.jfr.QueueBackPressureEvents;
import io.mech.probes.profiler.TriggerSource;
import io.mech.probes.queues.QueueProbe;
import io.mech.probes.queues.QueueSettings;
import io.mech.probes.queues.QueueSnapshot;
import io.mech.probes.queues.QueueStats;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/** The queue probe as a {@link Part}. */
public final class QueuePart implements Part {

    /** Starts early, under -javaagent before main: the host's first queues are made in main, and the weaving must be in place. */
    public static final class Spec implements PartSpec.Starter {
        public static final Option<Boolean> ON = Option.onOff("probes.queues", "off",
            "the queue probe: depth, capacity, rates and Little's-law wait of every queue and executor the application creates");
        public static final Option<String> INCLUDE = Option.text("probes.queues.include", "",
            "packages (and their subpackages) whose own java.util.Queue classes are found and counted, separated by ';'; "
                + "empty: the main class's package");
        public static final Option<Long> SAMPLE = Option.duration("probes.queues.sample", "1s", Option.Bounds.between("50ms", "60s"),
            "time between samples of every queue");
        public static final Option<Double> ALERT = Option.percent("probes.queues.alert", "70%",
            "utilisation at which a bounded queue held for 3 samples raises a back-pressure alert");
        public static final Option<Long> DEEP = Option.count("probes.queues.deep", "10000",
            "depth at which an unbounded queue held for 3 samples raises a back-pressure alert");

        /** Without instrumentation nothing can be woven, and nothing is found: no part then. */
        public static final PartSpec PART = new PartSpec("queues", List.of(ON, INCLUDE, SAMPLE, ALERT, DEEP), PartSpec.Stage.EARLY, true, null,
            new Spec());

        private Spec() {
        }

        /** Starts the part; the spec itself is the starter, not a lambda, for premain's sake (see {@link PartSpec.Starter}). */
        @Override
        public Part start(final PartContext context) throws Exception {
            return context.instrumentation() == null ? null
                : QueuePart.start(context.options(), context.instrumentation(), context.beforeMain());
        }
    }

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
    private static QueuePart start(final Options options, final Instrumentation instrumentation, final boolean now) {
        final QueueSettings settings;
        try {
            settings = new QueueSettings(IncludedPackages.of(options.get(Spec.INCLUDE)),
                options.get(Spec.SAMPLE), options.get(Spec.ALERT),
                options.get(Spec.DEEP));
        } catch (final IllegalArgumentException e) {
            Console.warn(e.getMessage() + "; no queue probe");
            return null;
        }
        final QueueProbe probe = QueueProbe.start(instrumentation, settings, now, Console.WARNINGS);
        if (probe == null) {
            return null;
        }
        try {
            probe.addListener(new QueueBackPressureEvents());
            return new QueuePart(probe);
        } catch (final OutOfMemoryError full) {
            // mech starts the part again once the heap has room: this probe must not weave and count beside the next
            probe.close();
            throw full;
        }
    }

    /** Back-pressure alerts. */
    @Override
    public List<TriggerSource> triggers() {
        return List.of(QueueTrigger.of(probe));
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
        return new Section("queues", QueueLines.of(now, ROWS), rows);
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
