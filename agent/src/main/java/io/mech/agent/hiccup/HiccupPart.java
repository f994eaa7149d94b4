package io.mech.agent.hiccup;

import io.mech.agent.options.Histogram;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.Mech;
import io.mech.agent.runtime.OwnJar;
import io.mech.agent.runtime.Part;
import io.mech.agent.runtime.PartContext;
import io.mech.agent.runtime.PartSpec;
import io.mech.exporter.HiccupFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.hiccup.ControlJvm;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.hiccup.HiccupSnapshot;
import io.mech.hiccup.LogPath;
import io.mech.hiccup.LogStatus;
import io.mech.hiccup.Pid;
import io.mech.hiccup.VmCounters;
import io.mech.probes.profiler.TriggerSource;
import io.mech.report.HiccupSummary;
import io.mech.report.Section;
import io.prometheus.metrics.model.snapshots.Labels;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The hiccup recorder as a {@link Part}: the host's meter and interval log, the virtual-thread
 * meter, and the control JVM when asked for. Its findings are the rows of the report's hiccup
 * table, not a section; it offers the causes part its recorder and the control JVM's stalls, and
 * the profiler a trigger on long hiccups.
 *
 * <p>Threads: started on {@code mech-start}; its families are read by scrape threads and its
 * rows by the report thread, through the recorder's and control JVM's own thread-safe snapshots.
 * The fields are final, published by the part's addition to mech's copy-on-write list.
 */
public final class HiccupPart implements Part {

    /** Starts first of all: every other part's findings are read against the hiccups. */
    public static final class Spec implements PartSpec.Starter {
        public static final Option<Boolean> ON = Option.onOff("hiccup", "on", "the hiccup recorder");
        public static final Option<String> LOG = Option.text("hiccup.log", "hiccup.%date.%pid.hlog",
            "interval log path; %pid, %date and %host expand; relative to the working directory; empty for no log");
        public static final Option<Long> INTERVAL = Option.duration("hiccup.interval", "5s", Option.Bounds.from("10ms"),
            "length of one logged interval");
        public static final Option<Long> RESOLUTION = Option.duration("hiccup.resolution", "1ms", Option.Bounds.between("1us", "1s"),
            "how long the recorder waits between samples");
        public static final Option<Long> DELAY = Option.duration("hiccup.delay", "0", "what is recorded before this is discarded");
        public static final Option<Long> ATTRIBUTE_ABOVE = Option.duration("hiccup.attribute-above", "2ms", Option.Bounds.from("1us"),
            "hiccups at least this long count as stalls: counted and summed without correction");
        public static final Option<Boolean> VIRTUAL = Option.onOff("hiccup.virtual", "on",
            "on JDK 21 and later, a second meter on a virtual thread measures how long virtual threads wait for a carrier "
                + "(logged with Tag=virtual); starts after the host's first second");
        public static final Option<Boolean> CONTROL = Option.bool("hiccup.control", "false",
            "start an idle control JVM that logs its own hiccups to the log path plus .c and exits with the host");

        /** The profiler's trigger on a long hiccup: this part raises it, the profiler only starts the capture. */
        public static final Option<Long> PROFILER_THRESHOLD = Option.duration("hiccup.profiler-threshold", "100ms",
            "a hiccup at least this long triggers a capture (needs profiler=on)");

        public static final PartSpec PART = new PartSpec("hiccup",
            List.of(ON, LOG, INTERVAL, RESOLUTION, DELAY, ATTRIBUTE_ABOVE, VIRTUAL, CONTROL, PROFILER_THRESHOLD),
            PartSpec.Stage.EARLY, false, null, new Spec());

        private Spec() {
        }

        /** Starts the part; the spec itself is the starter, not a lambda, for premain's sake (see {@link PartSpec.Starter}). */
        @Override
        public Part start(final PartContext context) throws Exception {
            return HiccupPart.start(context);
        }

        /**
         * Starts the meter before main, on memory it takes now, so that it measures from the host's
         * first line through a heap the host fills from there; the log and the rest follow after main.
         */
        @Override
        public void beforeMain(final PartContext context) {
            context.offers().recorder(HiccupRecorder.startMeter(settings(context.options(), false), counters(context.instrumentation())));
        }
    }

    private final Options options;
    private final HiccupRecorder recorder;
    /** Null when no control JVM runs. */
    private final ControlJvm control;

    /**
     * @param recorder the running recorder
     * @param control  the running control JVM; null when there is none
     */
    public HiccupPart(final Options options, final HiccupRecorder recorder, final ControlJvm control) {
        this.options = options;
        this.recorder = recorder;
        this.control = control;
    }

    private static Part start(final PartContext context) {
        final Options options = context.options();
        final HiccupSettings settings = settings(options, true);
        HiccupRecorder recorder = context.offers().recorder();
        if (recorder == null) {
            recorder = HiccupRecorder.startMeter(settings, counters(context.instrumentation()));
            // offered at once: a start an OutOfMemoryError cuts short and tries again finds this meter, not a second one
            context.offers().recorder(recorder);
        }
        recorder.startLog(settings.log(), Console.WARNINGS);
        ControlJvm control = null;
        if (settings.log() != null) {
            // The recorder's settings name the log it writes: <log>.<pid> when another JVM holds <log>.
            final LogStatus log = recorder.logStatus();
            System.setProperty(log.opened() ? Mech.LOG_PROPERTY : Mech.LOG_PROBLEM_PROPERTY,
                log.opened() ? log.path().toString() : log.path() + " (" + log.problem() + ")");
            if (options.get(Spec.CONTROL)) {
                control = startControl(recorder);
            }
        } else if (options.get(Spec.CONTROL)) {
            Console.warn("option 'hiccup.control' needs a hiccup.log for the control JVM to write; no control JVM");
        }
        context.offers().recorder(recorder);
        if (control != null) {
            context.offers().controlStalls(control.stalls());
        }
        return new HiccupPart(options, recorder, control);
    }

    /**
     * HotSpot's counters for the meter to read with each stall: through the file HotSpot shares
     * them in, else through {@code jdk.internal.perf}, which {@code java.base} is asked to export to
     * mech where mech has the instrumentation for it ({@code -XX:+PerfDisableSharedMem} keeps no file).
     *
     * @return the counters; null where the JVM keeps none ({@code -XX:-UsePerfData}), and the causes say so
     */
    private static VmCounters counters(final Instrumentation instrumentation) {
        final VmCounters shared = VmCounters.openShared();
        if (shared != null) {
            return shared;
        }
        if (instrumentation != null) {
            final Module base = Object.class.getModule();
            try {
                if (instrumentation.isModifiableModule(base)) {
                    instrumentation.redefineModule(base, Set.of(), Map.of("jdk.internal.perf", Set.of(VmCounters.class.getModule())),
                        Map.of(), Set.of(), Map.of());
                }
            } catch (final RuntimeException e) {
                // then the shared file, below
            }
        }
        return VmCounters.open();
    }

    /**
     * The control JVM, or null when it could not start (it warned why): the recorder runs
     * already, so a control JVM that fails to start costs the part nothing else.
     */
    private static ControlJvm startControl(final HiccupRecorder recorder) {
        try {
            return ControlJvm.start(OwnJar.path(), recorder.settings(), Console.WARNINGS);
        } catch (final RuntimeException e) {
            Console.warn("cannot start the control JVM (" + e + "); host hiccups only");
            return null;
        }
    }

    /**
     * @param withLog whether to name the log and warn of options that do not go together: after main; before
     *                it the meter needs neither, and the same options fall back to the same defaults then
     */
    private static HiccupSettings settings(final Options options, final boolean withLog) {
        final String template = options.get(Spec.LOG);
        final Path log = !withLog || template.isEmpty() ? null
            : Path.of(LogPath.expand(template, Pid.current(), LogPath.localNow())).toAbsolutePath();
        try {
            return new HiccupSettings(options.get(Spec.RESOLUTION), options.get(Spec.INTERVAL), options.get(Spec.DELAY),
                options.get(Spec.ATTRIBUTE_ABOVE), log);
        } catch (final IllegalArgumentException e) {
            if (withLog) {
                Console.warn("hiccup options: " + e.getMessage() + "; using the defaults for hiccup.resolution, "
                    + "hiccup.interval, hiccup.delay and hiccup.attribute-above");
            }
            final Options defaults = Options.defaults();
            return new HiccupSettings(defaults.get(Spec.RESOLUTION), defaults.get(Spec.INTERVAL), defaults.get(Spec.DELAY),
                defaults.get(Spec.ATTRIBUTE_ABOVE), log);
        }
    }

    @Override
    public String name() {
        return "hiccup";
    }

    @Override
    public List<MetricFamilies> families() {
        final Map<Labels, Supplier<HiccupSnapshot>> jvms = new LinkedHashMap<>();
        jvms.put(Labels.of("jvm", "host"), recorder::snapshot);
        if (control != null) {
            jvms.put(Labels.of("jvm", "control"), this::controlSnapshot);
        }
        // null until the virtual-thread meter runs, which the families skip
        jvms.put(Labels.of("jvm", "host", "thread", "virtual"), recorder::virtualSnapshot);
        return List.of(new HiccupFamilies(jvms, options.get(Option.PROMETHEUS_HISTOGRAM) == Histogram.CLASSIC));
    }

    @Override
    public List<TriggerSource> triggers() {
        return List.of(HiccupTrigger.of(recorder.watchQueue(), options.get(Spec.PROFILER_THRESHOLD)));
    }

    /** The virtual-thread meter: its first virtual thread brings up the scheduler's carriers, which a host living a second does not need. */
    @Override
    public void startDeferred() {
        if (options.get(Spec.VIRTUAL)) {
            recorder.meterVirtualThreads();
        }
    }

    /** None: the hiccups are the report's first table ({@link #hiccups}). */
    @Override
    public Section section() {
        return null;
    }

    @Override
    public List<HiccupSummary> hiccups() {
        final List<HiccupSummary> summaries = new ArrayList<>(3);
        final LogStatus log = recorder.logStatus();
        if (log == null) {
            summaries.add(summary("host", recorder.snapshot(), "", ""));
        } else {
            // A log that was never opened has no path worth printing: only the reason.
            summaries.add(summary("host", recorder.snapshot(), log.opened() ? log.path().toString() : "",
                log.problem() == null ? "" : log.problem()));
        }
        final HiccupSnapshot virtual = recorder.virtualSnapshot();
        if (virtual != null) {
            summaries.add(summary("virtual", virtual, "", ""));
        }
        final HiccupSnapshot controlled = control == null ? null : controlSnapshot();
        // a control log that cannot be read has no row; notes() says why
        if (controlled != null) {
            summaries.add(summary("control", controlled, control.log().toString(), ""));
        }
        return summaries;
    }

    /**
     * Why the control JVM's row is missing, when its log cannot be read; asking again costs a stat of the
     * log, as the follower hands out one snapshot per interval.
     */
    @Override
    public List<String> notes() {
        final List<String> notes = new ArrayList<>(2);
        final long lost = recorder.intervalsLost();
        if (lost > 0) {
            notes.add(lost + " intervals' log lines lost while the host's heap was full; their hiccups are in the totals");
        }
        if (control != null) {
            try {
                control.snapshot();
            } catch (final IOException e) {
                notes.add("control JVM log " + control.log() + " unreadable: " + e.getMessage());
            }
        }
        return notes;
    }

    /** Waits, until the deadline at most, for the control JVM's last interval, and stops it. */
    @Override
    public void settle(final long deadline) {
        if (control != null) {
            control.close(deadline);
        }
    }

    /** Writes the last interval and closes the log. */
    @Override
    public void close() {
        recorder.close();
    }

    /** A snapshot's percentiles, and what became of its log: written whole ({@code problem} empty), part way, or not at all. */
    private static HiccupSummary summary(final String jvm, final HiccupSnapshot snapshot, final String log, final String problem) {
        return new HiccupSummary(jvm,
            snapshot.percentileNanos(50.0), snapshot.percentileNanos(90.0), snapshot.percentileNanos(99.0),
            snapshot.percentileNanos(99.9), snapshot.maxNanos(), snapshot.count(), snapshot.intervals(),
            snapshot.stalls(), snapshot.stallNanos(), log, problem);
    }

    /** The control JVM's snapshot, or null while its log cannot be read. */
    private HiccupSnapshot controlSnapshot() {
        try {
            return control.snapshot();
        } catch (final IOException e) {
            return null;
        }
    }
}
