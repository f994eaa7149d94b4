package io.mech.agent.options;

import java.util.List;
import java.util.Locale;

/**
 * One option mech reads, with its kind and default. The same key can be given as an agent
 * argument ({@code key=value}), a system property ({@code -Dmech.key=value}) or an environment
 * variable ({@code MECH_KEY}, dots and dashes as underscores); see {@link Options} for which wins.
 *
 * <p>The options of mech's core (the recorder, its causes and control JVM, /metrics and the
 * report) are declared here; each part declares its own in its spec, so that a new part brings
 * its options with it. Immutable.
 */
public final class Option {

    public static final Option ENABLED = of("enabled", Kind.BOOLEAN, "true", "false turns mech off entirely");
    public static final Option PROMETHEUS = of("prometheus", Kind.SWITCH, "on", "serve /metrics for Prometheus");
    public static final Option PROMETHEUS_HOST = of("prometheus.host", Kind.TEXT, "127.0.0.1",
        "address to serve /metrics on; 0.0.0.0 for every interface");
    public static final Option PROMETHEUS_PORT = of("prometheus.port", Kind.PORT, "9464", "port to serve /metrics on; 0 for any free port");
    public static final Option PROMETHEUS_USER = of("prometheus.user", Kind.TEXT, "", "basic-auth user; needs prometheus.password-file");
    public static final Option PROMETHEUS_PASSWORD_FILE = of("prometheus.password-file", Kind.TEXT, "",
        "file whose first line is the basic-auth password");
    public static final Option PROMETHEUS_KEYSTORE = of("prometheus.keystore", Kind.TEXT, "", "PKCS12 or JKS keystore: serve HTTPS instead of HTTP");
    public static final Option PROMETHEUS_KEYSTORE_PASSWORD_FILE = of("prometheus.keystore-password-file", Kind.TEXT, "",
        "file whose first line is the keystore password");
    public static final Option PROMETHEUS_JVM = of("prometheus.jvm", Kind.SWITCH, "on", "also export client_java's JVM metrics");
    public static final Option PROMETHEUS_HISTOGRAM = of("prometheus.histogram", Kind.HISTOGRAM, "native",
        "native: exponential buckets (needs Prometheus with native histograms); classic: fixed buckets");
    public static final Option REPORT = of("report", Kind.TEXT, "stderr", "where the report goes at exit: stderr, off, or a file path");
    public static final Option REPORT_INTERVAL = of("report.interval", "0", Bounds.zeroOrFrom("1s"),
        "also report this often while running (0: only at exit)");
    public static final Option REPORT_JSON = of("report.json", Kind.TEXT, "", "also write the report as JSON to this file");

    /** The core's options, in the order the options table lists them. */
    public static final List<Option> CORE = List.of(ENABLED, PROMETHEUS, PROMETHEUS_HOST,
        PROMETHEUS_PORT, PROMETHEUS_USER, PROMETHEUS_PASSWORD_FILE, PROMETHEUS_KEYSTORE, PROMETHEUS_KEYSTORE_PASSWORD_FILE,
        PROMETHEUS_JVM, PROMETHEUS_HISTOGRAM, REPORT, REPORT_INTERVAL, REPORT_JSON);

    /** What values an option takes. */
    public enum Kind {
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
        /** when a part reads JFR. */
        JFR("on, demand or off"),
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
    public record Bounds(long minNanos, long maxNanos, boolean zeroOff, String expected) {

        /** Any duration. */
        static final Bounds ANY = new Bounds(0, Long.MAX_VALUE, true, Kind.DURATION.expected);

        public static Bounds from(final String min) {
            return new Bounds(Durations.parseNanos(min), Long.MAX_VALUE, false, "a duration of at least " + min);
        }

        public static Bounds between(final String min, final String max) {
            return new Bounds(Durations.parseNanos(min), Durations.parseNanos(max), false, "a duration from " + min + " to " + max);
        }

        static Bounds zeroOrFrom(final String min) {
            return new Bounds(Durations.parseNanos(min), Long.MAX_VALUE, true, "0, or a duration of at least " + min);
        }

        boolean contains(final long nanos) {
            return nanos == 0 && zeroOff || nanos >= minNanos && nanos <= maxNanos;
        }
    }

    public final String key;
    public final Kind kind;
    public final String defaultValue;
    public final String description;
    /** The durations taken; {@link Bounds#ANY} for options of other kinds. */
    final Bounds bounds;

    /** An option of any kind but a bounded duration. */
    public static Option of(final String key, final Kind kind, final String defaultValue, final String description) {
        return new Option(key, kind, defaultValue, Bounds.ANY, description);
    }

    /** A duration option whose values the bounds limit. */
    public static Option of(final String key, final String defaultValue, final Bounds bounds, final String description) {
        return new Option(key, Kind.DURATION, defaultValue, bounds, description);
    }

    private Option(final String key, final Kind kind, final String defaultValue, final Bounds bounds, final String description) {
        this.key = key;
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.bounds = bounds;
        this.description = description;
    }

    /** What the option takes, as a warning and the options table say it. */
    public String expected() {
        return kind == Kind.DURATION ? bounds.expected() : kind.expected;
    }

    /** The environment variable that sets this option. */
    public String environmentName() {
        return "MECH_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The system property that sets this option. */
    String propertyName() {
        return "mech." + key;
    }
}
