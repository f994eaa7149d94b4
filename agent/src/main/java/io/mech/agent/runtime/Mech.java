package io.mech.agent.runtime;

import io.mech.agent.options.Histogram;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.exporter.ExporterSettings;
import io.mech.exporter.InternalErrors;
import io.mech.exporter.JoinedFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.exporter.PrometheusEndpoint;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.cause.OwnOperations;
import io.mech.probes.VmOperations;
import io.mech.probes.profiler.TriggerSource;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * mech running inside a host JVM: the parts the options switch on, composed from the list of parts it is given
 * and stopped together by one shutdown hook that writes the last interval before the final report.
 *
 * <p>The caller's thread (the host's main thread under -javaagent) only reads the options and
 * registers the hook; the parts start on the {@code mech-start} thread, because loading time
 * zones, process handles and HdrHistogram there costs the host's start-up nothing on a
 * machine with a second core.
 *
 * <p>Exit never waits on mech. The hook does mech's stopping on the daemon thread
 * {@code mech-stop} and waits for it within an {@link ExitBudget}; past that it says so
 * in one line and lets the JVM go. What is left of that budget once the report is written lets a
 * start of JFR's recorder under way end: JFR prints on the host's output when the VM dies under
 * it. Nothing waits for {@code mech-start}: a host that exits while mech
 * still starts gets what had started by then, and {@code mech-start} starts nothing more.
 *
 * <p>Thread contract: {@code mech-start} adds each part to the copy-on-write {@link #parts} as it
 * starts, writes the endpoint and the reporter to volatile fields, and checks {@link #stopping}
 * between them; {@code mech-stop} sets {@code stopping} first, then takes one copy of the parts,
 * adds the parts that started before main and {@code mech-start} had not added yet, and reads the
 * fields once. A part whose start was under way at that moment is not stopped: its threads are
 * daemons and the JVM is exiting.
 */
public final class Mech {

    /** The hiccup recorder's part, by its stable name: the report says whether it was off or had not started. */
    private static final String HICCUP_PART = "hiccup";
    /** Whether /metrics may set its scrapes up: a class, not a lambda, made in premain; asked on a serving thread. */
    private static final BooleanSupplier HEAP_ROOM = new BooleanSupplier() {
        @Override
        public boolean getAsBoolean() {
            return HeapRoom.now();
        }
    };

    /**
     * The system property in which a running mech publishes its absolute log path, so that
     * {@code mech attach} (and {@code jcmd <pid> VM.system_properties}) can tell where it goes.
     */
    public static final String LOG_PROPERTY = "io.mech.hiccup.log";

    /** The system property in which mech publishes, instead of {@link #LOG_PROPERTY}, the log it could not write and why. */
    public static final String LOG_PROBLEM_PROPERTY = "io.mech.hiccup.log.not-written";

    /** The system property in which a running mech publishes its /metrics address, cleared when /metrics closes. */
    public static final String METRICS_PROPERTY = "io.mech.metrics";

    /**
     * The system property in which mech publishes, in epoch milliseconds, when every part the
     * options asked for had started (some wait a second after start-up: see {@link #DEFERRED_START_MILLIS}).
     */
    static final String STARTED_PROPERTY = "io.mech.started";

    /** The system property in which a running mech publishes how many of its options it refused. */
    public static final String REFUSED_PROPERTY = "io.mech.options.refused";

    private static final long START_WAIT_MILLIS = 5_000;

    /**
     * How long after start-up, under -javaagent, the parts that a JVM living a second does not
     * need wait to start: the JFR stream (and so the names of collections and VM operations, and
     * the lock probe's JFR events), the lock probe's weaving and the profiler. The causes attribute
     * from HotSpot's counters meanwhile.
     */
    static final long DEFERRED_START_MILLIS = 1_000;

    /**
     * What the stop keeps from its budget for closing the recorder, writing the report and the
     * parts' exits, after the parts settle (a capture in flight is written, false-sharing
     * verdicts come in): on a loaded machine 150 ms was seen not to be enough for the report.
     */
    private static final long REPORT_RESERVE_MILLIS = 250;

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
    /** Written by mech-start once everything runs; the final report at exit goes through it, after its periodic ones. */
    private volatile Reporter reporter;
    /** The parts that started, in start order; written by whichever thread starts one, read by the report and the stop. */
    private final List<Part> parts = new CopyOnWriteArrayList<>();
    /**
     * Held while JFR's recorder is made ({@link #openJfr}): the exit waits for it within its
     * budget, for JFR retransforms the JDK's I/O classes as it starts, and a VM that died
     * meanwhile has JFR print a warning on the host's output (a host ending 2.1 s in, two busy
     * threads beside it: {@code JVMTI_ERROR_WRONG_PHASE}).
     */
    private final ReentrantLock openingJfr = new ReentrantLock();
    /*
     * mech-start's own progress through startRemaining, which an OutOfMemoryError may cut short:
     * read and written by mech-start alone.
     */
    private int reached;
    private int progress;
    /** Written by mech-start alone, read by the report on any thread. */
    private volatile long waitedForRoom;
    /** How long the deferred start waited for a calm heap: written by mech-start, read by the report. */
    private volatile long waitedForCalm;
    /** What the parts offer the profiler, asked as it starts; a class, not a method reference, since a part before main takes it. */
    private final Supplier<List<TriggerSource>> triggers = new Supplier<List<TriggerSource>>() {
        @Override
        public List<TriggerSource> get() {
            return profilerTriggers();
        }
    };
    /** Whether the host began to exit, as {@link HeapRoom} asks it: made before the heap may be full. */
    private final BooleanSupplier stopped = new BooleanSupplier() {
        @Override
        public boolean getAsBoolean() {
            return stopping;
        }
    };
    private Part starting;
    private Part selfPart;
    private boolean jfrAtOnce;
    private JfrStream stream;
    /** The parts whose families /metrics serves; mech-start's own, made before the host runs. */
    private final List<Part> joined = new ArrayList<>(16);
    /** What the parts offer one another; see its contract. */
    private final Offers offers = new Offers();
    private final SelfCpu selfCpu;
    /** Read by tests, through {@link #errors()}, after the stop. */
    private final InternalErrors errors = new InternalErrors(Console.WARNINGS);
    /** Every thread of mech's is in it, or in a group within it: see its contract. */
    private final MechThreadGroup group;
    /** Starts /metrics and starts it again when the JDK server's dispatcher dies. */
    private final MetricsKeeper metrics;
    /** Each part's families, added once as the part starts; /metrics serves them from then on. */
    private final JoinedFamilies partFamilies = new JoinedFamilies(errors);
    /**
     * The parts tried on the host's thread in premain, before main ({@link PartSpec#beforeMain}),
     * by spec in composed order, null for one that did not start: written before {@code mech-start}
     * starts and before the shutdown hook is registered, which publish them to both.
     */
    private final Map<PartSpec, Part> beforeMain = new LinkedHashMap<>();

    /**
     * @param composed the parts to start where the options switch them on: every part mech has, or
     *                 a test's own
     */
    Mech(final Options options, final boolean attached, final Instrumentation instrumentation, final List<PartSpec> composed) {
        this.options = options;
        this.composed = List.copyOf(composed);
        this.attached = attached;
        this.instrumentation = instrumentation == null ? null : new TimedInstrumentation(instrumentation, offers.ownOperations());
        final OwnOperations own = offers.ownOperations();
        // classes rather than lambdas from here to main: each lambda's first call site costs the
        // host's start-up about half a millisecond (see PartSpec.Starter)
        VmOperations.timeWith(new VmOperations.Timer() {
            @Override
            public Runnable begin(final String name) {
                final OwnOperations.Operation operation = own.begin(name);
                return new Runnable() {
                    @Override
                    public void run() {
                        own.end(operation);
                    }
                };
            }
        });
        this.metrics = new MetricsKeeper(new Supplier<PrometheusEndpoint>() {
            @Override
            public PrometheusEndpoint get() {
                return startEndpoint();
            }
        }, stopped);
        final MetricsKeeper keeper = metrics;
        this.group = new MechThreadGroup(errors, new Consumer<Thread>() {
            @Override
            public void accept(final Thread died) {
                keeper.threadDied(died);
            }
        });
        this.selfCpu = new SelfCpu(group);
        // initialised here, where the heap has room, for the start's way back from an OutOfMemoryError
        LockSupport.getBlocker(Thread.currentThread());
        HeapRoom.now();
        this.starter = new Thread(group, new Runnable() {
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
     * @param composed  every part mech has, in the order they start within their stage
     */
    public static void start(final String agentArgs, final boolean attached, final Instrumentation instrumentation,
                             final List<PartSpec> composed) throws InterruptedException {
        final Options options = Options.parse(PartSpec.allOptions(composed), agentArgs, System.getProperties(), System.getenv(),
            Console.WARNINGS);
        System.setProperty(REFUSED_PROPERTY, Integer.toString(options.refused()));
        if (!options.get(Option.ENABLED)) {
            return;
        }
        final ClassesBeforeMain classes = attached ? null : ClassesBeforeMain.start(options.get(Option.PROMETHEUS));
        final Mech mech = new Mech(options, attached, instrumentation, composed);
        if (!attached && instrumentation != null) {
            mech.startBeforeMainInGroup();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(mech.group, new Runnable() {
            @Override
            public void run() {
                mech.stopWithinBudget();
            }
        }, "mech-shutdown"));
        if (classes != null) {
            classes.awaitBeforeMain();
        }
        mech.starter.start();
        if (attached) {
            mech.recording.await(START_WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Runs {@link #startBeforeMain} on a thread of mech's group while the host's thread waits for
     * it, as if it ran there: the threads those parts start join mech's group.
     */
    private void startBeforeMainInGroup() throws InterruptedException {
        final Thread before = new Thread(group, new Runnable() {
            @Override
            public void run() {
                startBeforeMain();
            }
        }, "mech-before-main");
        before.setDaemon(true);
        before.start();
        before.join();
    }

    /**
     * Starts, while the host's thread waits, the parts that must weave classes as they load: the host's
     * first queues are made in main, and loops it starts there and never leaves are only seen in
     * code woven before they run.
     */
    void startBeforeMain() {
        for (final PartSpec spec : composed) {
            if (!spec.wanted(options)) {
                continue;
            }
            if (spec.beforeMain()) {
                // kept even when null: a part that did not start before main is not tried again; put
                // first, so that an OutOfMemoryError after the part started cannot leave it out and start it twice
                beforeMain.put(spec, null);
                beforeMain.put(spec, startPart(spec, null, true));
            } else if (!stopping) {
                try {
                    spec.starter().beforeMain(context(null, true));
                } catch (final OutOfMemoryError | Exception | LinkageError e) {
                    // the host's thread waits: one try, and the part starts after main as usual
                    errors.failed("start " + spec.name(), e);
                }
            }
        }
    }

    /**
     * Starts, in order, the parts of the early stage (the hiccup recorder first), /metrics, then
     * prepares the report (its code loads here, not at exit), and, after the deferral, what the
     * parts defer, the JFR stream with the parts that read it (the causes first), then the last
     * parts, which see what every other part offers (the profiler subscribes to their triggers).
     * Each part starts in its own room: one that throws is an internal error, and the rest start
     * as usual. An {@link OutOfMemoryError} anywhere is counted, and the start goes on where it
     * stopped once the heap has room, after 10 ms, then twice as long each time up to 1 s: under
     * a heap full from start-up one such error once ended mech for the whole run, recorder and
     * /metrics included.
     */
    void startParts() {
        long backoff = HeapRoom.FIRST_BACKOFF_NANOS;
        try {
            while (true) {
                try {
                    awaitRoom();
                    startRemaining();
                    return;
                } catch (final OutOfMemoryError full) {
                    // nothing here may load a class: loading one needs the heap that is full
                    errors.failed("mech-start", full);
                    if (stopping) {
                        return;
                    }
                    backoff = HeapRoom.backOff(backoff);
                }
            }
        } catch (final OutOfMemoryError full) {
            errors.failed("mech-start", full);
        } catch (final Throwable t) {
            if (!ShutdownState.begun()) {
                Console.warn("not started: " + t);
            }
        } finally {
            recording.countDown();
        }
    }

    /**
     * What {@link #startParts} has left to do, each step once: {@link #reached} says which steps
     * are done, and {@link #progress} which part or spec a step has come to, so that a step an
     * {@link OutOfMemoryError} cut short starts nothing twice when it goes on.
     */
    private void startRemaining() throws InterruptedException {
        if (reached < Step.EARLY) {
            if (selfPart == null) {
                selfPart = new SelfCpuPart(selfCpu, startNanos, () -> waitedForRoom, () -> waitedForCalm, offers.ownOperations()::stops,
                    offers.recorder() != null);
            }
            add(selfPart);
            startStage(PartSpec.Stage.EARLY, null);
            reached = Step.EARLY;
        }
        if (reached < Step.ENDPOINT) {
            if (options.get(Option.PROMETHEUS) && !stopping && metrics.endpoint() == null) {
                awaitRoom();
                metrics.start();
            }
            recording.countDown();
            if (!stopping) {
                // while the deferral waits anyway: the report's code loads now, not at exit; not a
                // step(), which would name this start step in a stop's give-up line
                try {
                    new Reporter(options, parts, startNanos, errors, withoutHiccups()).prepare();
                } catch (final Throwable t) {
                    errors.failed("report", t);
                }
            }
            reached = Step.ENDPOINT;
        }
        if (!deferred()) {
            return;
        }
        if (reached < Step.DEFERRED) {
            // What comes next (JFR, the virtual-thread meter, the probes' weaving) initialises JDK classes
            // the host may not have used yet, and a class whose initialiser meets a full heap stays broken
            // for the JVM's life: in a host that fills its heap again and again, not in one of its breaths.
            waitedForCalm += HeapRoom.awaitCalm(stopped, stopped);
            for (; progress < parts.size(); progress++) {
                final Part part = parts.get(progress);
                startStep("start deferred " + part.name(), part::startDeferred);
            }
            jfrAtOnce = jfrAtOnce();
            stream = jfrAtOnce ? openJfr() : null;
            // after the stream: a full heap that cuts its opening short must not start every part's deferred start again
            progress = 0;
            reached = Step.DEFERRED;
        }
        if (reached < Step.SUBSCRIBED) {
            final JfrStream opened = stream;
            for (; opened != null && progress < parts.size(); progress++) {
                final Part part = parts.get(progress);
                startStep("subscribe " + part.name(), () -> part.subscribe(opened.stream()));
            }
            progress = 0;
            reached = Step.SUBSCRIBED;
        }
        if (reached < Step.WITH_JFR) {
            startStage(PartSpec.Stage.WITH_JFR, stream);
            reached = Step.WITH_JFR;
        }
        if (reached < Step.STREAM) {
            if (stream != null) {
                stream.start(offers.ownOperations(), Console.WARNINGS);
            }
            reached = Step.STREAM;
        }
        if (reached < Step.LAST) {
            startStage(PartSpec.Stage.LAST, stream);
            reached = Step.LAST;
        }
        if (reached < Step.ARMED) {
            if (!jfrAtOnce && withoutJfr() != null && !stopping) {
                offers.jfrDemand().arm(new Consumer<String>() {
                    @Override
                    public void accept(final String why) {
                        openJfrOnDemand();
                    }
                });
            }
            reached = Step.ARMED;
        }
        if (!stopping && reporter == null) {
            final Reporter started = new Reporter(options, parts, startNanos, errors, withoutHiccups());
            started.startPeriodic();
            reporter = started;
        }
        if (!stopping && reached < Step.STARTED) {
            // mech-start ends here: what it used stays counted
            selfCpu.sample();
            System.setProperty(STARTED_PROPERTY, Long.toString(System.currentTimeMillis()));
            reached = Step.STARTED;
        }
    }

    /** The steps of {@link #startRemaining}, in order: {@link #reached} holds the last one done. */
    private static final class Step {
        static final int EARLY = 1;
        static final int ENDPOINT = 2;
        static final int DEFERRED = 3;
        static final int SUBSCRIBED = 4;
        static final int WITH_JFR = 5;
        static final int STREAM = 6;
        static final int LAST = 7;
        static final int ARMED = 8;
        static final int STARTED = 9;

        private Step() {
        }
    }

    /**
     * Starts the wanted parts of a stage from {@link #progress} on, each once, and adds each: a
     * part that started is kept in {@link #starting} until it is added, so that an
     * {@link OutOfMemoryError} in between does not start it twice.
     */
    private void startStage(final PartSpec.Stage stage, final JfrStream jfr) {
        final List<PartSpec> specs = wanted(stage);
        for (; progress < specs.size(); progress++) {
            if (starting == null) {
                awaitRoom();
                final PartSpec spec = specs.get(progress);
                starting = beforeMain.containsKey(spec) ? beforeMain.get(spec) : startPart(spec, jfr, false);
            }
            add(starting);
            starting = null;
        }
        progress = 0;
    }

    /** Waits for room in the host's heap ({@link HeapRoom}) before loading and starting more of mech, counting the wait for the report. */
    private void awaitRoom() {
        waitedForRoom += HeapRoom.await(stopped);
    }

    /**
     * One step of the start in its own room: an exception or a linkage error is counted; an
     * {@link OutOfMemoryError} goes on to {@link #startParts}, which tries the step again.
     */
    private void startStep(final String component, final Runnable step) {
        try {
            step.run();
        } catch (final RuntimeException | LinkageError e) {
            errors.failed(component, e);
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
            return spec.start(context(stream, onHostThread));
        } catch (final OutOfMemoryError full) {
            if (!onHostThread) {
                throw full;
            }
            // the host's thread waits for a part started before main: one try, never a wait for memory
            errors.failed(spec.name(), full);
            return null;
        } catch (final Exception | LinkageError e) {
            errors.failed("start " + spec.name(), e);
            return null;
        }
    }

    private PartContext context(final JfrStream stream, final boolean onHostThread) {
        return new PartContext(options, instrumentation, onHostThread, stream == null ? null : stream.stream(), offers, triggers);
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
     * Whether mech's JFR stream opens after the deferral: a part of the later stages reads it from
     * the first second (the lock probe under probes.locks.jfr=on), or an early one wants it at
     * once; otherwise it opens when a part asks (the lock probe at its first contention). Where
     * this JVM has no JFR it is tried at once too, so that its one warning comes at the start.
     */
    private boolean jfrAtOnce() {
        if (withoutJfr() != null && !JfrStream.available()) {
            // tried at once, for the one warning that says what each part does instead
            return true;
        }
        for (final PartSpec spec : composed) {
            if (spec.stage() != PartSpec.Stage.EARLY && spec.readsJfrAtOnce(options)) {
                return true;
            }
        }
        for (final Part part : parts) {
            try {
                if (part.wantsJfrAtOnce()) {
                    return true;
                }
            } catch (final RuntimeException e) {
                errors.failed("wants JFR " + part.name(), e);
            }
        }
        return false;
    }

    /**
     * Opens the JFR stream a part asked for, on a thread of its own: the request comes from a
     * part's thread, which must not wait for JFR's start (a second and more of CPU).
     */
    private void openJfrOnDemand() {
        final Thread opening = new Thread(group, new Runnable() {
            @Override
            public void run() {
                if (stopping) {
                    return;
                }
                final JfrStream stream = openJfr();
                if (stream == null) {
                    return;
                }
                for (final Part part : parts) {
                    try {
                        part.subscribe(stream.stream());
                    } catch (final RuntimeException | LinkageError e) {
                        errors.failed("subscribe " + part.name(), e);
                    }
                }
                stream.start(offers.ownOperations(), Console.WARNINGS);
            }
        }, "mech-jfr-open");
        opening.setDaemon(true);
        opening.start();
    }

    /**
     * Makes JFR's recorder, under {@link #openingJfr}, unless the host has begun to exit.
     *
     * @return the stream, or null: JFR is not available, or the host is exiting
     */
    private JfrStream openJfr() {
        openingJfr.lock();
        try {
            return ShutdownState.begun() ? null : JfrStream.open(withoutJfr(), offers.ownOperations(), Console.WARNINGS);
        } finally {
            openingJfr.unlock();
        }
    }

    /**
     * What the one warning says is lost when JFR cannot run: what each wanted part that reads JFR
     * does instead; null when nothing wanted reads JFR, and the stream is not opened.
     */
    private String withoutJfr() {
        final List<String> lost = new ArrayList<>();
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
        if (!parts.contains(part)) {
            parts.add(part);
        }
        if (joined.contains(part) || !options.get(Option.PROMETHEUS)) {
            // Without /metrics nothing reads the families: building them loaded client_java's
            // model and took a few hundred KiB of an idle host's first seconds.
            return;
        }
        final List<MetricFamilies> families;
        try {
            families = part.families();
        } catch (final RuntimeException e) {
            errors.failed("families " + part.name(), e);
            return;
        }
        partFamilies.add(part.name(), families);
        joined.add(part);
    }

    private PrometheusEndpoint startEndpoint() {
        final ExporterSettings settings;
        try {
            settings = new ExporterSettings(options.get(Option.PROMETHEUS_HOST), options.get(Option.PROMETHEUS_PORT),
                options.get(Option.PROMETHEUS_USER), path(Option.PROMETHEUS_PASSWORD_FILE), path(Option.PROMETHEUS_KEYSTORE),
                path(Option.PROMETHEUS_KEYSTORE_PASSWORD_FILE), options.get(Option.PROMETHEUS_JVM),
                options.get(Option.PROMETHEUS_HISTOGRAM) == Histogram.CLASSIC);
        } catch (final IllegalArgumentException e) {
            Console.warn(e.getMessage() + "; no /metrics endpoint");
            return null;
        }
        // Most parts start after the endpoint: each adds its families as it starts.
        final PrometheusEndpoint started = PrometheusEndpoint.start(settings, List.of(partFamilies, errors), Console.WARNINGS, HEAP_ROOM);
        if (started != null) {
            try {
                System.setProperty(METRICS_PROPERTY, (settings.keystore() == null ? "http://" : "https://")
                    + settings.host() + ":" + started.port() + "/metrics");
            } catch (final OutOfMemoryError full) {
                // started again once the heap has room, on the same port
                started.close();
                throw full;
            }
        }
        return started;
    }

    private Path path(final Option<String> option) {
        final String value = options.get(option);
        return value.isEmpty() ? null : Path.of(value);
    }

    /**
     * The shutdown hook: stops mech on {@code mech-stop} and waits for it within its
     * {@link ExitBudget}, so that the host's exit never waits longer, whatever mech or JFR does
     * meanwhile. What is left of it once the report is written goes to a start of JFR's recorder
     * under way.
     */
    private void stopWithinBudget() {
        ShutdownState.begin();
        stopping = true;
        stopSignal.countDown();
        // classes rather than lambdas on the exit path, as on premain's: the host's exit waits for them
        final ExitBudget budget = ExitBudget.fromNow(new LongSupplier() {
            @Override
            public long getAsLong() {
                final HiccupRecorder recorder = offers.recorder();
                return recorder == null ? -1 : recorder.vmStoppedNanos();
            }
        });
        final Thread stopper = new Thread(group, new Runnable() {
            @Override
            public void run() {
                stop(budget.deadline());
            }
        }, "mech-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            if (!budget.waitFor(new ExitBudget.Wait() {
                @Override
                public boolean waitFor(final long nanos) throws InterruptedException {
                    TimeUnit.NANOSECONDS.timedJoin(stopper, nanos);
                    return !stopper.isAlive();
                }
            })) {
                Console.warn("stopping took over " + budget.waitedMillis() + " ms; gave up while " + stopStep
                    + "; the host exits without waiting");
                return;
            }
            // After the report: what is left of the budget lets a start of JFR's recorder under way end before the VM dies.
            budget.waitFor(new ExitBudget.Wait() {
                @Override
                public boolean waitFor(final long nanos) throws InterruptedException {
                    if (!openingJfr.tryLock(nanos, TimeUnit.NANOSECONDS)) {
                        return false;
                    }
                    openingJfr.unlock();
                    return true;
                }
            });
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Settles every part that started, the last started first (the profiler writes a capture in
     * flight before the causes wait for late JFR events, and those before the control JVM's last
     * interval), closes them in start order (the recorder writes its last interval before the
     * causes tag it), and writes the final report; each step in its own room, so that one that
     * throws is an internal error and the steps after it still run.
     */
    void stop(final long deadline) {
        final long settled = deadline - TimeUnit.MILLISECONDS.toNanos(REPORT_RESERVE_MILLIS);
        // while every part's threads still live: one that ends as its part closes keeps what it was last seen to use
        step("measuring mech's own CPU", "self-cpu", new Runnable() {
            @Override
            public void run() {
                selfCpu.sampleAgain();
            }
        });
        final List<Part> started = started();
        for (int i = started.size() - 1; i >= 0; i--) {
            final Part part = started.get(i);
            step("waiting for the " + part.name() + " part's last findings", "settle " + part.name(), new Runnable() {
                @Override
                public void run() {
                    part.settle(settled);
                }
            });
        }
        for (final Part part : started) {
            step("closing the " + part.name() + " part", "close " + part.name(), new Runnable() {
                @Override
                public void run() {
                    part.close();
                }
            });
        }
        final Reporter periodic = reporter;
        step("writing the final report", "report", new Runnable() {
            @Override
            public void run() {
                (periodic != null ? periodic : new Reporter(options, started, startNanos, errors, withoutHiccups())).finalReport();
            }
        });
        close();
    }

    /**
     * Why a report has no hiccups: the recorder is off, or it had not started (a host that exits in
     * its first milliseconds ends before mech-start reaches it; a recorder that failed to start is
     * an internal error the report names too).
     */
    private String withoutHiccups() {
        for (final PartSpec spec : composed) {
            if (spec.name().equals(HICCUP_PART) && spec.wanted(options)) {
                return "no hiccups reported: the hiccup recorder's part had not started";
            }
        }
        return "hiccup recorder off";
    }

    /**
     * The parts that started, in start order as mech-start added them, then those that started
     * before main and that it had not added yet: a host that exits in its first milliseconds may
     * stop before mech-start reaches them, and their weaving has counted the host's work since premain.
     */
    private List<Part> started() {
        final List<Part> started = new ArrayList<>(parts);
        for (final Part part : beforeMain.values()) {
            if (part != null && !started.contains(part)) {
                started.add(part);
            }
        }
        return started;
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
        final PrometheusEndpoint served = metrics.endpoint();
        stopStep = "closing /metrics";
        if (served != null) {
            try {
                served.close();
            } catch (final RuntimeException e) {
                Console.warn("closing /metrics: " + e);
            }
            // nothing serves there any more: attach and jcmd must not find the address
            System.clearProperty(METRICS_PROPERTY);
        }
        stopStep = "stopped";
    }

    /** @return the internal errors counted so far, by component */
    InternalErrors errors() {
        return errors;
    }
}
