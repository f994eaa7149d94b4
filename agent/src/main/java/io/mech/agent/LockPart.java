package io.mech.agent;

import io.mech.agent.report.Section;
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
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordingStream;

/** The lock probe as a {@link Part}. */
final class LockPart implements Part {

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
    static LockPart start(final Options options, final Instrumentation instrumentation, final RecordingStream stream) {
        final LockProbe probe = LockProbe.start(instrumentation, new LockProbeSettings(options.nanos(Option.PROBES_LOCKS_THRESHOLD),
            options.flag(Option.PROBES_LOCKS_COUNTING), LockProbeSettings.DEFAULTS.maxRows()), stream, Console.WARNINGS);
        return probe == null ? null : new LockPart(probe, stream == null ? null : LockContentionEvents.register(probe::snapshot),
            options.nanos(Option.PROFILER_LOCK_THRESHOLD));
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
        return new Section("locks", snapshot.render(ROWS), rows(snapshot));
    }

    /** Every row of the snapshot, for tools: one per site, counted j.u.c. lock and inflation cause. */
    private static List<Map<String, Object>> rows(final LockSnapshot snapshot) {
        final List<Map<String, Object>> rows = new ArrayList<>();
        for (final LockSite site : snapshot.sites()) {
            final Map<String, Object> row = row(site.kind().name().toLowerCase(Locale.ROOT), site.lockClass(), site.count());
            row.put("site", site.callSite());
            row.put("total_ms", site.totalNanos() / 1e6);
            row.put("max_ms", site.maxNanos() / 1e6);
            rows.add(row);
        }
        for (final JucContention c : snapshot.belowThreshold()) {
            final Map<String, Object> row = row("juc_counted", c.lockClass(), c.count());
            row.put("mode", c.mode().isEmpty() ? "exclusive" : c.mode());
            row.put("total_ms", c.totalNanos() / 1e6);
            row.put("max_ms", c.maxNanos() / 1e6);
            rows.add(row);
        }
        for (final Inflation i : snapshot.inflations()) {
            final Map<String, Object> row = row("inflation", i.monitorClass(), i.count());
            row.put("cause", i.cause());
            row.put("by_wait", i.byWait());
            rows.add(row);
        }
        return rows;
    }

    private static Map<String, Object> row(final String kind, final String lockClass, final long count) {
        final Map<String, Object> row = new LinkedHashMap<>();
        row.put("kind", kind);
        row.put("class", lockClass);
        row.put("count", count);
        return row;
    }
}
