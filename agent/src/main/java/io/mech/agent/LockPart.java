package io.mech.agent;

import io.mech.agent.report.Section;
import io.mech.probes.locks.LockProbe;
import io.mech.probes.locks.LockProbeSettings;
import java.lang.instrument.Instrumentation;
import java.util.List;
import jdk.jfr.consumer.RecordingStream;

/** The lock probe as a {@link Part}. */
final class LockPart implements Part {

    /** The lock sites a report lists per table, worst first. */
    private static final int ROWS = 10;

    private final LockProbe probe;

    private LockPart(final LockProbe probe) {
        this.probe = probe;
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
        return probe == null ? null : new LockPart(probe);
    }

    @Override
    public Section section() {
        return new Section("locks", probe.snapshot().render(ROWS), List.of());
    }

    @Override
    public void close() {
        probe.close();
    }
}
