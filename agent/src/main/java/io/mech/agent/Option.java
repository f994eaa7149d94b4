package io.mech.agent;

import java.util.Locale;

/**
 * Every option mech reads, with its kind and default. The same key can be given as an agent
 * argument ({@code key=value}), a system property ({@code -Dmech.key=value}) or an environment
 * variable ({@code MECH_KEY}, dots and dashes as underscores); see {@link Options} for which wins.
 */
enum Option {
    ENABLED("enabled", Kind.BOOLEAN, "true", "false turns mech off entirely"),
    HICCUP("hiccup", Kind.SWITCH, "on", "the hiccup recorder"),
    HICCUP_LOG("hiccup.log", Kind.TEXT, "hiccup.%date.%pid.hlog",
        "interval log path; %pid, %date and %host expand; relative to the working directory; empty for no log"),
    HICCUP_INTERVAL("hiccup.interval", "5s", Bounds.from("10ms"), "length of one logged interval"),
    HICCUP_RESOLUTION("hiccup.resolution", "1ms", Bounds.between("1us", "1s"), "how long the recorder sleeps between samples"),
    HICCUP_DELAY("hiccup.delay", Kind.DURATION, "0", "what is recorded before this is discarded"),
    HICCUP_ATTRIBUTE_ABOVE("hiccup.attribute-above", "2ms", Bounds.from("1us"),
        "hiccups at least this long count as stalls: counted and summed without correction"),
    HICCUP_CAUSES("hiccup.causes", Kind.SWITCH, "on",
        "attribute each stall to gc, safepoint, ttsp (time to safepoint), mech or os through a JFR stream (GC, VM-operation and safepoint events) that starts after the host's first second"),
    HICCUP_VIRTUAL("hiccup.virtual", Kind.SWITCH, "on",
        "on JDK 21 and later, a second meter on a virtual thread measures how long virtual threads wait for a carrier (logged with Tag=virtual); starts after the host's first second"),
    HICCUP_CONTROL("hiccup.control", Kind.BOOLEAN, "false",
        "start an idle control JVM that logs its own hiccups to the log path plus .c and exits with the host"),
    PROBES_LOCKS("probes.locks", Kind.SWITCH, "on",
        "the lock probe: monitor contention and inflation by class and call site (JFR), and short ReentrantLock contention"),
    PROBES_LOCKS_THRESHOLD("probes.locks.threshold", Kind.DURATION, "1ms",
        "shortest monitor block, monitor wait or lock park the lock probe hears of from JFR (default.jfc: 20ms)"),
    PROBES_LOCKS_COUNTING("probes.locks.counting", Kind.SWITCH, "on",
        "count every contended ReentrantLock and ReentrantReadWriteLock acquisition, however short (woven advice)"),
    PROBES_FALSESHARING("probes.falsesharing", Kind.SWITCH, "off",
        "the false-sharing probe: counts field and array-slot accesses in the included packages for one window (under -javaagent woven as classes load, switched off outside the window; attached, woven for the window only)"),
    PROBES_FALSESHARING_INCLUDE("probes.falsesharing.include", Kind.TEXT, "",
        "packages (and their subpackages) the false-sharing probe weaves and judges, separated by ';'; empty: the main class's package"),
    PROBES_FALSESHARING_DELAY("probes.falsesharing.delay", Kind.DURATION, "5s",
        "from start-up to the false-sharing window"),
    PROBES_FALSESHARING_WINDOW("probes.falsesharing.window", Kind.DURATION, "10s",
        "how long the false-sharing counting stays switched on"),
    PROBES_FALSESHARING_EVERY("probes.falsesharing.every", Kind.DURATION, "0",
        "repeat the false-sharing window this often, start to start (e.g. 10m; longer than the window); 0: one window"),
    PROBES_QUEUES("probes.queues", Kind.SWITCH, "off",
        "the queue probe: depth, capacity, rates and Little's-law wait of every queue and executor the application creates"),
    PROBES_QUEUES_INCLUDE("probes.queues.include", Kind.TEXT, "",
        "packages (and their subpackages) whose own java.util.Queue classes are found and counted, separated by ';'; empty: the main class's package"),
    PROBES_QUEUES_SAMPLE("probes.queues.sample", "1s", Bounds.between("50ms", "60s"), "time between samples of every queue"),
    PROBES_QUEUES_ALERT("probes.queues.alert", Kind.PERCENT, "70%",
        "utilisation at which a bounded queue held for 3 samples raises a back-pressure alert"),
    PROBES_QUEUES_DEEP("probes.queues.deep", Kind.COUNT, "10000",
        "depth at which an unbounded queue held for 3 samples raises a back-pressure alert"),
    PROFILER("profiler", Kind.SWITCH, "off",
        "async-profiler captures on trigger: a long hiccup, lock blocking, a queue back-pressure alert"),
    PROFILER_MODE("profiler.mode", Kind.MODE, "trigger",
        "trigger: a capture starts sampling at its trigger; continuous: a low-rate wall-clock and lock profile runs all the time "
            + "and a capture is the window around its trigger (profiler.event is then ignored)"),
    PROFILER_DIR("profiler.dir", Kind.TEXT, "mech-captures",
        "where captures go (HTML flame graph, JFR file and JSON metadata); relative to the working directory"),
    PROFILER_EXTRACT_PATH("profiler.extract-path", Kind.TEXT, "",
        "where async-profiler's native library is extracted; empty: the temporary directory (give another if it is mounted noexec)"),
    PROFILER_EVENT("profiler.event", Kind.EVENT, "wall", "what a capture samples"),
    PROFILER_SECONDS("profiler.seconds", "5s", Bounds.between("100ms", "10m"),
        "how long a capture samples; in continuous mode, the length of one segment of the running profile"),
    PROFILER_HICCUP_THRESHOLD("profiler.hiccup-threshold", Kind.DURATION, "100ms",
        "a hiccup at least this long triggers a capture (needs hiccup=on)"),
    PROFILER_LOCK_THRESHOLD("profiler.lock-threshold", Kind.DURATION, "500ms",
        "threads blocked on locks this long in total within one second trigger a capture (needs probes.locks=on)"),
    PROFILER_COOLDOWN("profiler.cooldown", "60s", Bounds.from("1s"), "at most one capture starts per cooldown"),
    PROFILER_MAX_FILES("profiler.max-files", Kind.COUNT, "20", "captures kept in profiler.dir; the oldest are removed first"),
    PROMETHEUS("prometheus", Kind.SWITCH, "on", "serve /metrics for Prometheus"),
    PROMETHEUS_HOST("prometheus.host", Kind.TEXT, "127.0.0.1", "address to serve /metrics on; 0.0.0.0 for every interface"),
    PROMETHEUS_PORT("prometheus.port", Kind.PORT, "9464", "port to serve /metrics on; 0 for any free port"),
    PROMETHEUS_USER("prometheus.user", Kind.TEXT, "", "basic-auth user; needs prometheus.password-file"),
    PROMETHEUS_PASSWORD_FILE("prometheus.password-file", Kind.TEXT, "", "file whose first line is the basic-auth password"),
    PROMETHEUS_KEYSTORE("prometheus.keystore", Kind.TEXT, "", "PKCS12 or JKS keystore: serve HTTPS instead of HTTP"),
    PROMETHEUS_KEYSTORE_PASSWORD_FILE("prometheus.keystore-password-file", Kind.TEXT, "",
        "file whose first line is the keystore password"),
    PROMETHEUS_JVM("prometheus.jvm", Kind.SWITCH, "on", "also export client_java's JVM metrics"),
    PROMETHEUS_HISTOGRAM("prometheus.histogram", Kind.HISTOGRAM, "native",
        "native: exponential buckets (needs Prometheus with native histograms); classic: fixed buckets"),
    REPORT("report", Kind.TEXT, "stderr", "where the report goes at exit: stderr, off, or a file path"),
    REPORT_INTERVAL("report.interval", "0", Bounds.zeroOrFrom("1s"), "also report this often while running (0: only at exit)"),
    REPORT_JSON("report.json", Kind.TEXT, "", "also write the report as JSON to this file");

    /** What values an option takes. */
    enum Kind {
        /** true or false (also on/off, yes/no). */
        BOOLEAN("true or false"),
        /** on or off (also true/false, yes/no). */
        SWITCH("on or off"),
        /** a number and a unit. */
        DURATION("a duration such as 5s, 1ms or 250us"),
        /** a TCP port. */
        PORT("a port number from 0 to 65535"),
        /** a percentage above 0 and at most 100. */
        PERCENT("a percentage above 0% and at most 100%, such as 70%"),
        /** a whole number of at least 1. */
        COUNT("a whole number of at least 1"),
        /** when the profiler samples. */
        MODE("trigger or continuous"),
        /** what a profiler capture samples. */
        EVENT("wall, cpu, lock or alloc"),
        /** the kind of Prometheus histogram. */
        HISTOGRAM("native or classic"),
        /** any text, a path for instance. */
        TEXT("text");

        final String expected;

        Kind(final String expected) {
            this.expected = expected;
        }
    }

    /**
     * The values a duration option takes: a floor (a period of 1 ms would have mech do its work a
     * thousand times a second), perhaps a ceiling, and perhaps 0 for "never".
     *
     * @param minNanos the shortest value
     * @param maxNanos the longest value
     * @param zeroOff  whether 0 is taken too, meaning off
     * @param expected the values, as a warning and the options table say them
     */
    record Bounds(long minNanos, long maxNanos, boolean zeroOff, String expected) {

        /** Any duration. */
        static final Bounds ANY = new Bounds(0, Long.MAX_VALUE, true, Kind.DURATION.expected);

        static Bounds from(final String min) {
            return new Bounds(Durations.parseNanos(min), Long.MAX_VALUE, false, "a duration of at least " + min);
        }

        static Bounds between(final String min, final String max) {
            return new Bounds(Durations.parseNanos(min), Durations.parseNanos(max), false, "a duration from " + min + " to " + max);
        }

        static Bounds zeroOrFrom(final String min) {
            return new Bounds(Durations.parseNanos(min), Long.MAX_VALUE, true, "0, or a duration of at least " + min);
        }

        boolean contains(final long nanos) {
            return nanos == 0 && zeroOff || nanos >= minNanos && nanos <= maxNanos;
        }
    }

    final String key;
    final Kind kind;
    final String defaultValue;
    final String description;
    /** The durations taken; {@link Bounds#ANY} for options of other kinds. */
    final Bounds bounds;

    Option(final String key, final Kind kind, final String defaultValue, final String description) {
        this(key, kind, defaultValue, Bounds.ANY, description);
    }

    Option(final String key, final String defaultValue, final Bounds bounds, final String description) {
        this(key, Kind.DURATION, defaultValue, bounds, description);
    }

    private Option(final String key, final Kind kind, final String defaultValue, final Bounds bounds, final String description) {
        this.key = key;
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.bounds = bounds;
        this.description = description;
    }

    /** What the option takes, as a warning and the options table say it. */
    String expected() {
        return kind == Kind.DURATION ? bounds.expected() : kind.expected;
    }

    /** The environment variable that sets this option. */
    String environmentName() {
        return "MECH_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The system property that sets this option. */
    String propertyName() {
        return "mech." + key;
    }

    static Option byKey(final String key) {
        for (final Option option : values()) {
            if (option.key.equals(key)) {
                return option;
            }
        }
        return null;
    }
}
