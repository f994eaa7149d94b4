package io.mech.agent;

import io.mech.exporter.CauseFamilies;
import io.mech.exporter.ExporterSettings;
import io.mech.exporter.HiccupFamilies;
import io.mech.exporter.InternalErrors;
import io.mech.exporter.JoinedFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.exporter.PrometheusEndpoint;
import io.mech.exporter.jfr.HiccupEvents;
import io.mech.hiccup.ControlJvm;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.HiccupSettings;
import io.mech.hiccup.HiccupSnapshot;
import io.mech.hiccup.LogPath;
import io.mech.hiccup.LogStatus;
import io.mech.hiccup.Pid;
import io.mech.hiccup.cause.HiccupCauses;
import io.prometheus.metrics.model.snapshots.Labels;
import io.mech.probes.profiler.TriggerSource;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.Map;
import java.util.function.Supplier;

/**
 * mech running inside a host JVM: the parts the options switch on, stopped together by one
 * shutdown hook that writes the last interval before the final report.
 *
 * <p>The caller's thread (the host's main thread under -javaagent) only reads the options and
 * registers the hook; the parts start on the {@code mech-start} thread, because loading time
 * zones, process handles and HdrHistogram there costs the host's start-up nothing on a
 * machine with a second core.
 *
 * <p>Exit never waits on mech. The hook does mech's stopping on the daemon thread
 * {@code mech-stop} and waits for it at most {@link #STOP_BUDGET_MILLIS}; past that it says so in
 * one line and lets the JVM go. Nothing waits for {@code mech-start}: a host that exits while mech
 * still starts gets what had started by then, and {@code mech-start} starts nothing more.
 *
 * <p>Thread contract: {@code mech-start} writes the started components to volatile fields (and
 * {@link #parts}) as each starts, and checks {@link #stopping} between them; {@code mech-stop}
 * sets {@code stopping} first, then reads the fields once. A component whose start was under way
 * at that moment is not stopped: its threads are daemons and the JVM is exiting.
 */
final class Mech {

    /**
     * The system property in which a running mech publishes its absolute log path, so that
     * {@code mech attach} (and {@code jcmd <pid> VM.system_properties}) can tell where it goes.
     */
    static final String LOG_PROPERTY = "io.mech.hiccup.log";

    /** The system property in which mech publishes, instead of {@link #LOG_PROPERTY}, the log it could not write and why. */
    static final String LOG_PROBLEM_PROPERTY = "io.mech.hiccup.log.not-written";

    /** The system property in which a running mech publishes its /metrics address. */
    static final String METRICS_PROPERTY = "io.mech.metrics";

    /**
     * The system property in which mech publishes, in epoch milliseconds, when every part the
     * options asked for had started (some wait a second after start-up: see {@link #DEFERRED_START_MILLIS}).
     */
    static final String STARTED_PROPERTY = "io.mech.started";

    /** The system property in which a running mech publishes how many of its options it refused. */
    static final String REFUSED_PROPERTY = "io.mech.options.refused";

    private static final long START_WAIT_MILLIS = 5_000;

    /**
     * How long after start-up, under -javaagent, the parts that a JVM living a second does not
     * need wait to start: the JFR stream (and so hiccup causes and the lock probe's JFR events),
     * the lock probe's weaving and the profiler. Stalls before the stream records stay unattributed.
     */
    static final long DEFERRED_START_MILLIS = 1_000;

    /** The longest the JVM's exit waits for mech: the last interval, the report and the closes. */
    static final long STOP_BUDGET_MILLIS = 500;
    /**
     * What the stop keeps from its budget for closing the recorder, writing the report and the
     * parts' exits, after the parts settle (a capture in flight is written, false-sharing
     * verdicts come in): on a loaded machine 150 ms was seen not to be enough for the report.
     */
    private static final long REPORT_RESERVE_MILLIS = 250;
    /**
     * What the stop keeps from its budget beyond the report's when it waits for late JFR events
     * and the control JVM, after the parts settled. JFR flushes once a second, so a longer wait
     * would attribute a few more of the last second's stalls at the report's expense.
     */
    private static final long WAIT_RESERVE_MILLIS = 300;

    private final Options options;
    /** The parts to start where the options switch them on, in order. */
    private final List<PartSpec> composed;
    private final Instrumentation instrumentation;
    private final long startNanos = System.nanoTime();
    private final Thread starter;
    /**
     * Open once the recorder and /metrics run, before the JFR stream and the probes, whose first
     * start in a running JVM takes seconds: an attacher waits for this, not for them.
     */
    private final CountDownLatch recording = new CountDownLatch(1);
    /** Opened when the host begins to exit, so that a deferred start gives up at once. */
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private final boolean attached;
    private volatile boolean stopping;
    /** What mech-stop is doing, for the line that says where it gave up. */
    private volatile String stopStep = "starting to stop";
    private volatile HiccupRecorder hiccups;
    private volatile ControlJvm control;
    /** Written by mech-start after /metrics is up; scrapes read it. */
    private volatile HiccupCauses causes;
    private volatile PrometheusEndpoint endpoint;
    /** Written by mech-start once everything runs; the final report at exit goes through it, after its periodic ones. */
    private volatile Reporter reporter;
    private final List<Part> parts = new CopyOnWriteArrayList<>();
    private final SelfCpu selfCpu = new SelfCpu();
    /** Read by tests, through {@link #errors()}, after the stop. */
    private final InternalErrors errors = new InternalErrors(Console.WARNINGS);
    /** Each part's families, added once as the part starts; /metrics serves them from then on. */
    private final JoinedFamilies partFamilies = new JoinedFamilies(errors);
    /**
     * The parts tried on the host's thread in premain, before main ({@link PartSpec#beforeMain}),
     * by spec, null for one that did not start: written before {@code mech-start} starts, which
     * publishes them to it.
     */
    private final Map<PartSpec, Part> beforeMain = new HashMap<>();

    /**
     * @param composed the parts to start where the options switch them on: {@link Parts#ALL}, or
     *                 a test's own
     */
    Mech(final Options options, final boolean attached, final Instrumentation instrumentation, final List<PartSpec> composed) {
        this.options = options;
        this.composed = List.copyOf(composed);
        this.attached = attached;
        this.instrumentation = instrumentation;
        this.starter = new Thread(new Runnable() {
            @Override
            public void run() {
                startParts();
            }
        }, "mech-start");
        starter.setDaemon(true);
    }

    /**
     * Reads the options and starts what they switch on.
     *
     * @param agentArgs the agent argument
     * @param attached  true when loaded into a running JVM: there is no start-up to spare, and
     *                  the attacher reads the log path as soon as this returns, so wait for the parts
     * @param instrumentation the JVM's instrumentation, for the probes that weave advice
     */
    static void start(final String agentArgs, final boolean attached, final Instrumentation instrumentation)
        throws InterruptedException {
        final Options options = Options.parse(agentArgs, System.getProperties(), System.getenv(), Console.WARNINGS);
        System.setProperty(REFUSED_PROPERTY, Integer.toString(options.refused()));
        if (!options.flag(Option.ENABLED)) {
            return;
        }
        final Mech mech = new Mech(options, attached, instrumentation, Parts.ALL);
        if (!attached && instrumentation != null) {
            mech.startBeforeMain();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                mech.stopWithinBudget();
            }
        }, "mech-shutdown"));
        mech.starter.start();
        if (attached) {
            mech.recording.await(START_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Starts, on the host's thread, the parts that must weave classes as they load: the host's
     * first queues are made in main, and loops it starts there and never leaves are only seen in
     * code woven before they run.
     */
    private void startBeforeMain() {
        for (final PartSpec spec : composed) {
            if (spec.beforeMain() && spec.wanted(options)) {
                // kept even when null: a part that did not start before main is not tried again
                beforeMain.put(spec, startPart(spec, null, true));
            }
        }
    }

    /**
     * Starts, in order, the recorder, the parts of the early stage, /metrics, and, after the
     * deferral, the JFR stream with the causes and the parts that read it, then the last parts,
     * which see what every other part offers (the profiler subscribes to their triggers). Each
     * part starts in its own room: one that throws is an internal error, and the rest start as usual.
     */
    void startParts() {
        try {
            add(new SelfCpuPart(selfCpu, startNanos));
            if (options.flag(Option.HICCUP)) {
                startRecorder();
            }
            for (final PartSpec spec : wanted(PartSpec.Stage.EARLY)) {
                add(beforeMain.containsKey(spec) ? beforeMain.get(spec) : startPart(spec, null, false));
            }
            if (options.flag(Option.PROMETHEUS) && !stopping) {
                endpoint = startEndpoint();
            }
            recording.countDown();
            if (!deferred()) {
                return;
            }
            if (hiccups != null && options.flag(Option.HICCUP_VIRTUAL)) {
                // deferred too: the first virtual thread brings up the scheduler's carriers
                hiccups.meterVirtualThreads();
            }
            final boolean attribute = hiccups != null && options.flag(Option.HICCUP_CAUSES);
            final String withoutJfr = withoutJfr(attribute);
            final JfrStream stream = withoutJfr == null ? null : JfrStream.open(withoutJfr, Console.WARNINGS);
            if (attribute && stream != null) {
                startCauses(stream);
            }
            for (final PartSpec spec : wanted(PartSpec.Stage.WITH_JFR)) {
                add(startPart(spec, stream, false));
            }
            if (stream != null) {
                stream.start(Console.WARNINGS);
            }
            for (final PartSpec spec : wanted(PartSpec.Stage.LAST)) {
                add(startPart(spec, stream, false));
            }
            if (!stopping) {
                final Reporter started = new Reporter(options, hiccups, control, causes, parts, startNanos, errors);
                reporter = started;
                started.startPeriodic();
                // mech-start ends here: what it used stays counted
                selfCpu.sample();
                System.setProperty(STARTED_PROPERTY, Long.toString(System.currentTimeMillis()));
            }
        } catch (final Throwable t) {
            if (!ShutdownState.begun()) {
                Console.warn("not started: " + t);
            }
        } finally {
            recording.countDown();
        }
    }

    /** The parts of a stage that the options switch on, in the order they are composed. */
    private List<PartSpec> wanted(final PartSpec.Stage stage) {
        final List<PartSpec> wanted = new ArrayList<>();
        for (final PartSpec spec : composed) {
            if (spec.stage() == stage && spec.wanted(options)) {
                wanted.add(spec);
            }
        }
        return wanted;
    }

    private void startRecorder() {
        final HiccupSettings settings = hiccupSettings(options);
        hiccups = HiccupRecorder.start(settings, Console.WARNINGS);
        if (settings.log() != null) {
            // The recorder's settings name the log it writes: <log>.<pid> when another JVM holds <log>.
            final LogStatus log = hiccups.logStatus();
            System.setProperty(log.opened() ? LOG_PROPERTY : LOG_PROBLEM_PROPERTY,
                log.opened() ? log.path().toString() : log.path() + " (" + log.problem() + ")");
            if (options.flag(Option.HICCUP_CONTROL) && !stopping) {
                try {
                    control = ControlJvm.start(OwnJar.path(), hiccups.settings(), Console.WARNINGS);
                } catch (final RuntimeException e) {
                    errors.failed("start control", e);
                }
            }
        } else if (options.flag(Option.HICCUP_CONTROL)) {
            Console.warn("option 'hiccup.control' needs a hiccup.log for the control JVM to write; no control JVM");
        }
    }

    private void startCauses(final JfrStream stream) {
        try {
            final HiccupCauses started = HiccupCauses.start(hiccups, control == null ? null : control.stalls(), stream.stream());
            started.addListener(new HiccupEvents());
            causes = started;
            partFamilies.add("causes", List.of(new CauseFamilies(started::totals)));
        } catch (final RuntimeException e) {
            errors.failed("start causes", e);
        }
    }

    /**
     * Starts one part unless the host is exiting.
     *
     * @return the part; null when it did not start: the host is exiting, it warned why, or it
     *         threw, which is an internal error
     */
    private Part startPart(final PartSpec spec, final JfrStream stream, final boolean onHostThread) {
        if (stopping) {
            return null;
        }
        try {
            return spec.start(new PartContext(options, instrumentation, onHostThread, stream == null ? null : stream.stream(),
                hiccups, this::profilerTriggers));
        } catch (final Exception | LinkageError e) {
            errors.failed("start " + spec.name(), e);
            return null;
        }
    }

    /**
     * Waits, under -javaagent, until the host has run for {@link #DEFERRED_START_MILLIS}: what
     * comes next (the JFR stream, the lock probe's weaving, the profiler) costs a JVM that lives
     * a second several hundred milliseconds of CPU and gives it nothing. An attached mech has no
     * start-up to spare the host and goes straight on.
     *
     * @return false when the host began to exit meanwhile: start nothing more
     */
    private boolean deferred() throws InterruptedException {
        if (!attached) {
            final long until = startNanos + TimeUnit.MILLISECONDS.toNanos(DEFERRED_START_MILLIS);
            stopSignal.await(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        return !stopping;
    }

    /** What the parts that run offer the profiler as triggers. */
    private List<TriggerSource> profilerTriggers() {
        final List<TriggerSource> triggers = new ArrayList<>();
        for (final Part part : parts) {
            try {
                triggers.addAll(part.triggers());
            } catch (final RuntimeException e) {
                errors.failed("triggers " + part.name(), e);
            }
        }
        return triggers;
    }

    /**
     * What the one warning says is lost when JFR cannot run: the causes, and what each wanted part
     * that reads JFR does instead; null when nothing wanted reads JFR, and the stream is not opened.
     */
    private String withoutJfr(final boolean attribute) {
        final List<String> lost = new ArrayList<>();
        if (attribute) {
            lost.add("hiccups are recorded without their causes");
        }
        for (final PartSpec spec : composed) {
            if (spec.withoutJfr() != null && spec.wanted(options)) {
                lost.add(spec.withoutJfr());
            }
        }
        return lost.isEmpty() ? null : String.join("; ", lost);
    }

    /** Adds a part that started, and its families, asked for once. */
    private void add(final Part part) {
        if (part == null) {
            return;
        }
        parts.add(part);
        final List<MetricFamilies> families;
        try {
            families = part.families();
        } catch (final RuntimeException e) {
            errors.failed("families " + part.name(), e);
            return;
        }
        partFamilies.add(part.name(), families);
    }

    private PrometheusEndpoint startEndpoint() {
        final ExporterSettings settings;
        try {
            settings = new ExporterSettings(options.text(Option.PROMETHEUS_HOST), options.port(Option.PROMETHEUS_PORT),
                options.text(Option.PROMETHEUS_USER), path(Option.PROMETHEUS_PASSWORD_FILE), path(Option.PROMETHEUS_KEYSTORE),
                path(Option.PROMETHEUS_KEYSTORE_PASSWORD_FILE), options.flag(Option.PROMETHEUS_JVM),
                options.text(Option.PROMETHEUS_HISTOGRAM).equals("classic"));
        } catch (final IllegalArgumentException e) {
            Console.warn(e.getMessage() + "; no /metrics endpoint");
            return null;
        }
        final List<MetricFamilies> sources = new ArrayList<>();
        if (hiccups != null) {
            final Map<Labels, Supplier<HiccupSnapshot>> jvms = new LinkedHashMap<>();
            jvms.put(Labels.of("jvm", "host"), hiccups::snapshot);
            if (control != null) {
                jvms.put(Labels.of("jvm", "control"), this::controlSnapshot);
            }
            // null until the virtual-thread meter runs, which the families skip
            jvms.put(Labels.of("jvm", "host", "thread", "virtual"), hiccups::virtualSnapshot);
            sources.add(new HiccupFamilies(jvms, settings.classicBuckets()));
        }
        // The causes and most parts start after the endpoint: each adds its families as it starts.
        sources.add(partFamilies);
        sources.add(errors);
        final PrometheusEndpoint started = PrometheusEndpoint.start(settings, sources, Console.WARNINGS);
        if (started != null) {
            System.setProperty(METRICS_PROPERTY, (settings.keystore() == null ? "http://" : "https://")
                + settings.host() + ":" + started.port() + "/metrics");
        }
        return started;
    }

    private HiccupSnapshot controlSnapshot() {
        try {
            return control.snapshot();
        } catch (final IOException e) {
            return null;
        }
    }

    private Path path(final Option option) {
        final String value = options.text(option);
        return value.isEmpty() ? null : Path.of(value);
    }

    private static HiccupSettings hiccupSettings(final Options options) {
        final String template = options.text(Option.HICCUP_LOG);
        final Path log = template.isEmpty() ? null
            : Path.of(LogPath.expand(template, Pid.current(), LogPath.localNow())).toAbsolutePath();
        try {
            return new HiccupSettings(options.nanos(Option.HICCUP_RESOLUTION), options.nanos(Option.HICCUP_INTERVAL),
                options.nanos(Option.HICCUP_DELAY), options.nanos(Option.HICCUP_ATTRIBUTE_ABOVE), log);
        } catch (final IllegalArgumentException e) {
            Console.warn("hiccup options: " + e.getMessage() + "; using the defaults for hiccup.resolution, "
                + "hiccup.interval, hiccup.delay and hiccup.attribute-above");
            final Options defaults = Options.defaults();
            return new HiccupSettings(defaults.nanos(Option.HICCUP_RESOLUTION), defaults.nanos(Option.HICCUP_INTERVAL),
                defaults.nanos(Option.HICCUP_DELAY), defaults.nanos(Option.HICCUP_ATTRIBUTE_ABOVE), log);
        }
    }

    /**
     * The shutdown hook: stops mech on {@code mech-stop} and waits for it at most
     * {@link #STOP_BUDGET_MILLIS}, so that the host's exit never waits longer, whatever mech or
     * JFR does meanwhile.
     */
    private void stopWithinBudget() {
        ShutdownState.begin();
        stopping = true;
        stopSignal.countDown();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_BUDGET_MILLIS);
        final Thread stopper = new Thread(new Runnable() {
            @Override
            public void run() {
                stop(deadline);
            }
        }, "mech-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(STOP_BUDGET_MILLIS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopper.isAlive()) {
            Console.warn("stopping took over " + STOP_BUDGET_MILLIS + " ms; gave up while " + stopStep
                + "; the host exits without waiting");
        }
    }

    /**
     * Stops every part that started, writes the last interval and the final report, in that
     * order; each step in its own room, so that one that throws is an internal error and the
     * steps after it still run.
     */
    void stop(final long deadline) {
        final long settled = deadline - TimeUnit.MILLISECONDS.toNanos(REPORT_RESERVE_MILLIS);
        final long waited = deadline - TimeUnit.MILLISECONDS.toNanos(WAIT_RESERVE_MILLIS);
        final HiccupRecorder recorder = hiccups;
        final HiccupCauses attributed = causes;
        final ControlJvm controlJvm = control;
        for (final Part part : parts) {
            step("waiting for the probes' last findings", "settle " + part.name(), () -> part.settle(settled));
        }
        if (attributed != null) {
            step("waiting for late JFR events", "settle causes", () -> attributed.settle(waited));
        }
        if (controlJvm != null) {
            step("stopping the control JVM", "stop control", () -> controlJvm.close(waited));
        }
        if (recorder != null) {
            step("writing the last interval", "stop hiccup", recorder::close);
        }
        if (attributed != null) {
            step("writing the last interval", "stop causes", attributed::close);
        }
        final Reporter periodic = reporter;
        step("writing the final report", "report", () ->
            (periodic != null ? periodic : new Reporter(options, recorder, controlJvm, attributed, parts, startNanos, errors)).finalReport());
        close();
    }

    /** One step of the stop: says where the stop is, and counts a failure instead of ending the stop. */
    private void step(final String doing, final String component, final Runnable step) {
        stopStep = doing;
        try {
            step.run();
        } catch (final Throwable t) {
            errors.failed(component, t);
        }
    }

    /**
     * Closes /metrics. Nothing else is undone at exit: the parts' threads are daemons, their
     * weaving goes with the JVM (removing the lock probe's advice overran the budget), and the
     * JFR stream is left to JFR's own shutdown hook, which stops every recording (closing it
     * here waited on JFR's lock).
     */
    private void close() {
        final PrometheusEndpoint served = endpoint;
        stopStep = "closing /metrics";
        if (served != null) {
            try {
                served.close();
            } catch (final RuntimeException e) {
                Console.warn("closing /metrics: " + e);
            }
        }
        stopStep = "stopped";
    }

    /** @return the internal errors counted so far, by component */
    InternalErrors errors() {
        return errors;
    }
}
