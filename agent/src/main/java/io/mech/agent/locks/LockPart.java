package io.mech.agent.locks;

import io.mech.agent.options.JfrWhen;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.JfrStream;
import io.mech.agent.runtime.Part;
import io.mech.agent.runtime.PartContext;
import io.mech.agent.runtime.PartSpec;
import io.mech.exporter.LockFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.exporter.jfr.LockContentionEvents;
import io.mech.hiccup.HiccupRecorder;
import io.mech.probes.locks.Inflation;
import io.mech.probes.locks.JucContention;
import io.mech.probes.locks.LockProbe;
import io.mech.probes.locks.LockProbeSettings;
import io.mech.probes.locks.LockSite;
import io.mech.probes.locks.LockSnapshot;
import io.mech.probes.profiler.TriggerSource;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jfr.consumer.RecordingStream;

/** The lock probe as a {@link Part}. */
public final class LockPart implements Part {

    /**
     * Starts after the host's first second. With JFR on demand (the default) it watches for the
     * first contention and asks for mech's stream then; with JFR on it reads the stream from the
     * start; without JFR it samples through ThreadMXBean.
     */
    public static final class Spec implements PartSpec.Starter {
        public static final Option<Boolean> ON = Option.onOff("probes.locks", "on",
            "the lock probe: monitor contention and inflation by class and call site (JFR), and short ReentrantLock contention");
        public static final Option<Long> THRESHOLD = Option.duration("probes.locks.threshold", "1ms",
            "shortest monitor block, monitor wait or lock park the lock probe hears of from JFR (default.jfc: 20ms)");
        public static final Option<Boolean> COUNTING = Option.onOff("probes.locks.counting", "on",
            "count every contended ReentrantLock and ReentrantReadWriteLock acquisition, however short (woven advice)");

        public static final Option<JfrWhen> JFR = Option.choice("probes.locks.jfr", JfrWhen.class, "demand",
            "when the lock probe reads JFR: demand, from the first contention seen (a monitor a thread blocked on, or a counted "
                + "lock acquisition past the threshold), so that a host that never contends never pays JFR's start; on, from the "
                + "host's first second; off, never: locks are sampled through ThreadMXBean");

        /** The profiler's trigger on lock blocking: this part raises it, the profiler only starts the capture. */
        public static final Option<Long> PROFILER_THRESHOLD = Option.duration("probes.locks.profiler-threshold", "500ms",
            "threads blocked on locks this long in total within one second trigger a capture (needs profiler=on)");

        public static final PartSpec PART = new PartSpec("locks", List.of(ON, THRESHOLD, COUNTING, JFR, PROFILER_THRESHOLD),
            PartSpec.Stage.WITH_JFR, false,
            "locks are sampled through ThreadMXBean", new Spec());

        private Spec() {
        }

        /** Starts the part; the spec itself is the starter, not a lambda, for premain's sake (see {@link PartSpec.Starter}). */
        @Override
        public Part start(final PartContext context) throws Exception {
            return LockPart.start(context);
        }
    }

    /** The lock sites a report lists per table, worst first. */
    private static final int ROWS = 10;

    private final LockProbe probe;
    private final long triggerNanos;
    /** The hiccup recorder, whose meter parks under the threshold while the probe reads JFR; null without one. */
    private final HiccupRecorder recorder;
    private final long thresholdNanos;

    private LockPart(final LockProbe probe, final long triggerNanos, final HiccupRecorder recorder, final long thresholdNanos) {
        this.probe = probe;
        this.triggerNanos = triggerNanos;
        this.recorder = recorder;
        this.thresholdNanos = thresholdNanos;
    }

    /**
     * Starts the probe as the options say: on the stream where one is open (JFR on, or opened at
     * once for another part), on demand where the option says so, sampled otherwise.
     *
     * @return the part, or null when it could not start (it warned)
     */
    private static LockPart start(final PartContext context) {
        final Options options = context.options();
        final LockProbeSettings settings = new LockProbeSettings(options.get(Spec.THRESHOLD), options.get(Spec.COUNTING),
            LockProbeSettings.DEFAULTS.maxRows());
        final JfrWhen jfr = options.get(Spec.JFR);
        final RecordingStream stream = jfr == JfrWhen.OFF ? null : context.jfr();
        final boolean onDemand = stream == null && jfr == JfrWhen.DEMAND && JfrStream.available();
        final LockProbe probe = onDemand
            ? LockProbe.onDemand(context.instrumentation(), settings, context.offers().jfrDemand()::demand, Console.WARNINGS)
            : LockProbe.start(context.instrumentation(), settings, stream, Console.WARNINGS);
        if (probe == null) {
            return null;
        }
        try {
            final LockPart part = new LockPart(probe, options.get(Spec.PROFILER_THRESHOLD), context.offers().recorder(),
                settings.thresholdNanos());
            if (stream != null) {
                part.recording();
            }
            return part;
        } catch (final OutOfMemoryError full) {
            // mech starts the part again once the heap has room: this probe must not run on beside the next
            probe.close();
            throw full;
        }
    }

    /** The probe reads mech's stream from now on: mech's lock events go to JFR's recordings, and the meter parks under the threshold. */
    private void recording() {
        LockContentionEvents.register(probe::snapshot);
        if (recorder != null) {
            recorder.keepParksUnder(thresholdNanos);
        }
    }

    /**
     * Reads the stream from now on, under JFR on demand, and offers mech's lock events to JFR's
     * recordings; a probe that samples or reads JFR already ignores it.
     */
    @Override
    public void subscribe(final RecordingStream stream) {
        if (probe.subscribe(stream)) {
            recording();
        }
    }

    @Override
    public List<String> notes() {
        final String note = probe.onDemandNote(ManagementFactory.getRuntimeMXBean().getStartTime());
        return note == null ? List.of() : List.of("locks: " + note);
    }

    /** Blocking on locks past {@code probes.locks.profiler-threshold} within a second. */
    @Override
    public List<TriggerSource> triggers() {
        return List.of(LockTrigger.of(probe, triggerNanos));
    }

    @Override
    public String name() {
        return "locks";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new LockFamilies(probe::snapshot));
    }

    @Override
    public Section section() {
        final LockSnapshot snapshot = probe.snapshot();
        return new Section("locks", LockLines.of(snapshot, ROWS), rows(snapshot));
    }

    /** Every row of the snapshot, for tools: one per site, counted j.u.c. lock and inflation cause. */
    private static List<ReportRow> rows(final LockSnapshot snapshot) {
        final List<ReportRow> rows = new ArrayList<>();
        final boolean sampled = snapshot.source() == LockSnapshot.Source.SAMPLED;
        snapshot.sites().forEach(site -> rows.add(new SiteRow(site, sampled)));
        snapshot.belowThreshold().forEach(counted -> rows.add(new CountedRow(counted)));
        snapshot.inflations().forEach(inflation -> rows.add(new InflationRow(inflation)));
        return rows;
    }

    /**
     * A call site where threads blocked on a lock past the probe's threshold; sampled without JFR,
     * it has no {@code max_ms}, for a sample knows no block's length.
     */
    record SiteRow(LockSite site, boolean sampled) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("kind", site.kind().name().toLowerCase(Locale.ROOT)).field("class", site.lockClass())
                .field("count", site.count()).field("site", site.callSite())
                .millis("total_ms", site.totalNanos());
            if (!sampled) {
                json.millis("max_ms", site.maxNanos());
            }
        }
    }

    /** A java.util.concurrent lock whose contended acquisitions were counted, below the threshold included. */
    record CountedRow(JucContention counted) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("kind", "juc_counted").field("class", counted.lockClass()).field("count", counted.count())
                .field("mode", counted.mode().isEmpty() ? "exclusive" : counted.mode())
                .millis("total_ms", counted.totalNanos()).millis("max_ms", counted.maxNanos());
        }
    }

    /** Monitors of one class inflated for one cause. */
    record InflationRow(Inflation inflation) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("kind", "inflation").field("class", inflation.monitorClass()).field("count", inflation.count())
                .field("cause", inflation.cause()).field("by_wait", inflation.byWait());
        }
    }
}
