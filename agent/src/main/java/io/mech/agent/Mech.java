package io.mech.agent;

import io.mech.exporter.CauseFamilies;
import io.mech.exporter.ExporterSettings;
import io.mech.exporter.HiccupFamilies;
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
import io.mech.probes.profiler.TriggerSource;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
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
    private final List<Part> parts = new CopyOnWriteArrayList<>();
    private final SelfCpu selfCpu = new SelfCpu();
    /** Started on the host's thread under -javaagent, before anything else: see {@link #start}. */
    private QueuePart queues;
    /** Started on the host's thread under -javaagent, weaving the included classes as they load: see {@link #start}. */
    private FalseSharingPart falseSharing;

    private Mech(final Options options, final boolean attached, final Instrumentation instrumentation) {
        this.options = options;
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
        final Mech mech = new Mech(options, attached, instrumentation);
        if (!attached && options.flag(Option.PROBES_QUEUES) && instrumentation != null) {
            // the host's first queues are made in main: the weaving must be in place before it runs
            mech.queues = QueuePart.start(options, instrumentation, true);
        }
        if (!attached && options.flag(Option.PROBES_FALSESHARING) && instrumentation != null) {
            // loops the host starts in main and never leaves are only seen in code woven as it loads
            mech.falseSharing = FalseSharingPart.start(options, instrumentation, true);
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

    private void startParts() {
        try {
            add(new SelfCpuPart(selfCpu, startNanos));
            if (options.flag(Option.HICCUP)) {
                final HiccupSettings settings = hiccupSettings(options);
                hiccups = HiccupRecorder.start(settings, Console.WARNINGS);
                if (settings.log() != null) {
                    // The recorder's settings name the log it writes: <log>.<pid> when another JVM holds <log>.
                    final LogStatus log = hiccups.logStatus();
                    System.setProperty(log.opened() ? LOG_PROPERTY : LOG_PROBLEM_PROPERTY,
                        log.opened() ? log.path().toString() : log.path() + " (" + log.problem() + ")");
                    if (options.flag(Option.HICCUP_CONTROL) && !stopping) {
                        control = ControlJvm.start(OwnJar.path(), hiccups.settings(), Console.WARNINGS);
                    }
                } else if (options.flag(Option.HICCUP_CONTROL)) {
                    Console.warn("option 'hiccup.control' needs a hiccup.log for the control JVM to write; no control JVM");
                }
            }
            if (falseSharing != null) {
                add(falseSharing);
            } else if (options.flag(Option.PROBES_FALSESHARING) && !stopping) {
                add(FalseSharingPart.start(options, instrumentation, false));
            }
            if (queues != null) {
                add(queues);
            } else if (options.flag(Option.PROBES_QUEUES) && instrumentation != null && !stopping) {
                add(QueuePart.start(options, instrumentation, false));
            }
            if (options.flag(Option.PROMETHEUS) && !stopping) {
                endpoint = startEndpoint();
            }
            recording.countDown();
            if (!deferred()) {
                return;
            }
            final boolean attribute = hiccups != null && options.flag(Option.HICCUP_CAUSES);
            final JfrStream stream = attribute || options.flag(Option.PROBES_LOCKS)
                ? JfrStream.open(withoutJfr(attribute), Console.WARNINGS) : null;
            if (attribute && stream != null) {
                final HiccupCauses started = HiccupCauses.start(hiccups, control == null ? null : control.stalls(), stream.stream());
                started.addListener(new HiccupEvents());
                causes = started;
            }
            LockPart locks = null;
            if (options.flag(Option.PROBES_LOCKS) && !stopping) {
                locks = LockPart.start(options, instrumentation, stream == null ? null : stream.stream());
                add(locks);
            }
            if (stream != null) {
                stream.start(Console.WARNINGS);
            }
            if (options.flag(Option.PROFILER) && !stopping) {
                add(ProfilerPart.start(options, profilerTriggers(locks)));
            }
            if (!stopping) {
                reporter().startPeriodic();
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

    /** The triggers of the parts that run, for the profiler. */
    private List<TriggerSource> profilerTriggers(final LockPart locks) {
        final List<TriggerSource> triggers = new ArrayList<>();
        if (hiccups != null) {
            triggers.add(ProfilerTriggers.hiccup(hiccups.watchQueue(), options.nanos(Option.PROFILER_HICCUP_THRESHOLD)));
        }
        if (locks != null) {
            triggers.add(ProfilerTriggers.lock(locks.probe(), options.nanos(Option.PROFILER_LOCK_THRESHOLD)));
        }
        for (final Part part : parts) {
            if (part instanceof QueuePart) {
                triggers.add(ProfilerTriggers.queue(((QueuePart) part).probe()));
            }
        }
        return triggers;
    }

    private String withoutJfr(final boolean attribute) {
        final String causesOff = "hiccups are recorded without their causes";
        final String sampled = "locks are sampled through ThreadMXBean";
        if (!options.flag(Option.PROBES_LOCKS)) {
            return causesOff;
        }
        return attribute ? causesOff + "; " + sampled : sampled;
    }

    private void add(final Part part) {
        if (part != null) {
            parts.add(part);
        }
    }

    private Reporter reporter() {
        return new Reporter(options, hiccups, control, causes, parts, startNanos);
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
            final Map<String, Supplier<HiccupSnapshot>> jvms = new LinkedHashMap<>();
            jvms.put("host", hiccups::snapshot);
            if (control != null) {
                jvms.put("control", this::controlSnapshot);
            }
            sources.add(new HiccupFamilies(jvms, settings.classicBuckets()));
        }
        // The causes and the probes start after the endpoint: their families are looked up at each scrape.
        sources.add(new JoinedFamilies(this::lateFamilies));
        final PrometheusEndpoint started = PrometheusEndpoint.start(settings, sources, Console.WARNINGS);
        if (started != null) {
            System.setProperty(METRICS_PROPERTY, (settings.keystore() == null ? "http://" : "https://")
                + settings.host() + ":" + started.port() + "/metrics");
        }
        return started;
    }

    private List<MetricFamilies> lateFamilies() {
        final List<MetricFamilies> families = new ArrayList<>();
        final HiccupCauses attributed = causes;
        if (attributed != null) {
            families.add(new CauseFamilies(attributed::totals));
        }
        for (final Part part : parts) {
            families.addAll(part.families());
        }
        return families;
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

    /** Stops every part that started, writes the last interval and the final report, in that order. */
    private void stop(final long deadline) {
        final long settled = deadline - TimeUnit.MILLISECONDS.toNanos(REPORT_RESERVE_MILLIS);
        final long waited = deadline - TimeUnit.MILLISECONDS.toNanos(WAIT_RESERVE_MILLIS);
        final HiccupRecorder recorder = hiccups;
        final HiccupCauses attributed = causes;
        final ControlJvm controlJvm = control;
        try {
            stopStep = "waiting for the probes' last findings";
            for (final Part part : parts) {
                part.settle(settled);
            }
            stopStep = "waiting for late JFR events";
            if (attributed != null) {
                attributed.settle(waited);
            }
            stopStep = "stopping the control JVM";
            if (controlJvm != null) {
                controlJvm.close(waited);
            }
            stopStep = "writing the last interval";
            if (recorder != null) {
                recorder.close();
            }
            if (attributed != null) {
                attributed.close();
            }
            stopStep = "writing the final report";
            new Reporter(options, recorder, controlJvm, attributed, parts, startNanos).finalReport();
        } catch (final Throwable t) {
            Console.warn("shutdown: " + t);
        }
        close();
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
}
