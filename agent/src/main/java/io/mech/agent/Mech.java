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
 */
final class Mech {

    /**
     * The system property in which a running mech publishes its absolute log path, so that
     * {@code mech attach} (and {@code jcmd <pid> VM.system_properties}) can tell where it goes.
     */
    static final String LOG_PROPERTY = "io.mech.hiccup.log";

    /** The system property in which a running mech publishes its /metrics address. */
    static final String METRICS_PROPERTY = "io.mech.metrics";

    private static final long START_WAIT_MILLIS = 5_000;

    private final Options options;
    private final Instrumentation instrumentation;
    private final long startNanos = System.nanoTime();
    private final Thread starter;
    /**
     * Open once the recorder and /metrics run, before the JFR stream and the probes, whose first
     * start in a running JVM takes seconds: an attacher waits for this, not for them.
     */
    private final CountDownLatch recording = new CountDownLatch(1);
    private HiccupRecorder hiccups;
    private ControlJvm control;
    /** Written by mech-start after /metrics is up; scrapes read it. */
    private volatile HiccupCauses causes;
    private JfrStream jfr;
    private PrometheusEndpoint endpoint;
    private final List<Part> parts = new CopyOnWriteArrayList<>();
    /** Started on the host's thread under -javaagent, before anything else: see {@link #start}. */
    private QueuePart queues;

    private Mech(final Options options, final Instrumentation instrumentation) {
        this.options = options;
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
        if (!options.flag(Option.ENABLED)) {
            return;
        }
        final Mech mech = new Mech(options, instrumentation);
        if (!attached && options.flag(Option.PROBES_QUEUES) && instrumentation != null) {
            // the host's first queues are made in main: the weaving must be in place before it runs
            mech.queues = QueuePart.start(options, instrumentation, true);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
            @Override
            public void run() {
                mech.stop();
            }
        }, "mech-shutdown"));
        mech.starter.start();
        if (attached) {
            mech.recording.await(START_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void startParts() {
        try {
            if (options.flag(Option.HICCUP)) {
                final HiccupSettings settings = hiccupSettings(options);
                hiccups = HiccupRecorder.start(settings, Console.WARNINGS);
                if (settings.log() != null) {
                    // The recorder's settings name the log it writes: <log>.<pid> when another JVM holds <log>.
                    System.setProperty(LOG_PROPERTY, hiccups.settings().log().toString());
                    if (options.flag(Option.HICCUP_CONTROL)) {
                        control = ControlJvm.start(OwnJar.path(), hiccups.settings(), Console.WARNINGS);
                    }
                } else if (options.flag(Option.HICCUP_CONTROL)) {
                    Console.warn("option 'hiccup.control' needs a hiccup.log for the control JVM to write; no control JVM");
                }
            }
            if (options.flag(Option.PROBES_FALSESHARING)) {
                add(FalseSharingPart.start(options, instrumentation));
            }
            if (queues != null) {
                add(queues);
            } else if (options.flag(Option.PROBES_QUEUES) && instrumentation != null) {
                add(QueuePart.start(options, instrumentation, false));
            }
            if (options.flag(Option.PROMETHEUS)) {
                endpoint = startEndpoint();
            }
            recording.countDown();
            final boolean attribute = hiccups != null && options.flag(Option.HICCUP_CAUSES);
            jfr = attribute || options.flag(Option.PROBES_LOCKS) ? JfrStream.open(withoutJfr(attribute), Console.WARNINGS) : null;
            if (attribute && jfr != null) {
                causes = HiccupCauses.start(hiccups, control == null ? null : control.stalls(), jfr.stream());
                causes.addListener(new HiccupEvents());
            }
            LockPart locks = null;
            if (options.flag(Option.PROBES_LOCKS)) {
                locks = LockPart.start(options, instrumentation, jfr == null ? null : jfr.stream());
                add(locks);
            }
            if (jfr != null) {
                jfr.start(Console.WARNINGS);
            }
            if (options.flag(Option.PROFILER)) {
                add(ProfilerPart.start(options, profilerTriggers(locks)));
            }
            reporter().startPeriodic();
        } catch (final Throwable t) {
            Console.warn("not started: " + t);
        } finally {
            recording.countDown();
        }
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

    private void stop() {
        try {
            starter.join(START_WAIT_MILLIS);
            if (causes != null) {
                causes.settle();
            }
            if (hiccups != null) {
                hiccups.close();
            }
            if (causes != null) {
                causes.close();
            }
            if (control != null) {
                control.close();
            }
            if (endpoint != null) {
                endpoint.close();
            }
            for (final Part part : parts) {
                part.settle();
            }
            reporter().finalReport();
            for (final Part part : parts) {
                part.close();
            }
            if (jfr != null) {
                jfr.close();
            }
        } catch (final Throwable t) {
            Console.warn("shutdown: " + t);
        }
    }
}
