package io.mech.agent;

import io.mech.exporter.LockFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.exporter.jfr.LockContentionEvents;
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
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import jdk.jfr.consumer.RecordingStream;

/** The lock probe as a {@link Part}. */
final class LockPart implements Part {

    /** Starts with the JFR stream, whose monitor and park events it reads; without JFR it samples through ThreadMXBean. */
    static final class Spec {
        static final Option ON = Option.of("probes.locks", Option.Kind.SWITCH, "on",
            "the lock probe: monitor contention and inflation by class and call site (JFR), and short ReentrantLock contention");
        static final Option THRESHOLD = Option.of("probes.locks.threshold", Option.Kind.DURATION, "1ms",
            "shortest monitor block, monitor wait or lock park the lock probe hears of from JFR (default.jfc: 20ms)");
        static final Option COUNTING = Option.of("probes.locks.counting", Option.Kind.SWITCH, "on",
            "count every contended ReentrantLock and ReentrantReadWriteLock acquisition, however short (woven advice)");

        static final PartSpec PART = new PartSpec("locks", List.of(ON, THRESHOLD, COUNTING), PartSpec.Stage.WITH_JFR, false,
            "locks are sampled through ThreadMXBean", context -> LockPart.start(context.options(), context.instrumentation(), context.jfr()));

        private Spec() {
        }
    }

    /** The lock sites a report lists per table, worst first. */
    private static final int ROWS = 10;

    private final LockProbe probe;
    private final LockContentionEvents events;
    private final long triggerNanos;

    private LockPart(final LockProbe probe, final LockContentionEvents events, final long triggerNanos) {
        this.probe = probe;
        this.events = events;
        this.triggerNanos = triggerNanos;
    }

    /**
     * Starts the probe as the options say.
     *
     * @param stream mech's JFR stream, not started yet; null without JFR
     * @return the part, or null when it could not start (it warned)
     */
    private static LockPart start(final Options options, final Instrumentation instrumentation, final RecordingStream stream) {
        final LockProbe probe = LockProbe.start(instrumentation, new LockProbeSettings(options.nanos(Spec.THRESHOLD),
            options.flag(Spec.COUNTING), LockProbeSettings.DEFAULTS.maxRows()), stream, Console.WARNINGS);
        return probe == null ? null : new LockPart(probe, stream == null ? null : LockContentionEvents.register(probe::snapshot),
            options.nanos(ProfilerPart.Spec.LOCK_THRESHOLD));
    }

    /** Blocking on locks past {@code profiler.lock-threshold} within a second. */
    @Override
    public List<TriggerSource> triggers() {
        return List.of(ProfilerTriggers.lock(probe, triggerNanos));
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
