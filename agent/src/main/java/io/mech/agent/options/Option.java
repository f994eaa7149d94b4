package io.mech.agent.options;

import io.mech.report.Durations;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * One option mech reads: its key, its default, and the parser that turns its text into a value of
 * type {@code T}, once, as the options are read ({@link Options#parse}). The same key can be given
 * as an agent argument ({@code key=value}), a system property ({@code -Dmech.key=value}) or an
 * environment variable ({@code MECH_KEY}, dots and dashes as underscores); see {@link Options}
 * for which wins.
 *
 * <p>The options of mech's core (/metrics and the report) are declared here; each part declares
 * its own in its spec, so that a new part brings its options with it. Immutable.
 *
 * @param <T> the type of the option's value
 */
public final class Option<T> {

    public static final Option<Boolean> ENABLED = bool("enabled", "true", "false turns mech off entirely");
    public static final Option<Boolean> PROMETHEUS = onOff("prometheus", "on", "serve /metrics for Prometheus");
    public static final Option<String> PROMETHEUS_HOST = text("prometheus.host", "127.0.0.1",
        "address to serve /metrics on; 0.0.0.0 for every interface");
    public static final Option<Integer> PROMETHEUS_PORT = port("prometheus.port", "9464", "port to serve /metrics on; 0 for any free port");
    public static final Option<String> PROMETHEUS_USER = text("prometheus.user", "", "basic-auth user; needs prometheus.password-file");
    public static final Option<String> PROMETHEUS_PASSWORD_FILE = text("prometheus.password-file", "",
        "file whose first line is the basic-auth password");
    public static final Option<String> PROMETHEUS_KEYSTORE = text("prometheus.keystore", "", "PKCS12 or JKS keystore: serve HTTPS instead of HTTP");
    public static final Option<String> PROMETHEUS_KEYSTORE_PASSWORD_FILE = text("prometheus.keystore-password-file", "",
        "file whose first line is the keystore password");
    public static final Option<Boolean> PROMETHEUS_JVM = onOff("prometheus.jvm", "on", "also export client_java's JVM metrics");
    public static final Option<Histogram> PROMETHEUS_HISTOGRAM = choice("prometheus.histogram", Histogram.class, "native",
        "native: exponential buckets (needs Prometheus with native histograms); classic: fixed buckets");
    public static final Option<Destination> REPORT = of("report", "stderr", Destination.EXPECTED, new Parser<Destination>() {
        @Override
        public Destination parse(final String text) {
            return Destination.parse(text);
        }
    }, "where the report goes at exit");
    public static final Option<Long> REPORT_INTERVAL = duration("report.interval", "0", Bounds.zeroOrFrom("1s"),
        "also report this often while running (0: only at exit)");
    public static final Option<String> REPORT_JSON = text("report.json", "", "also write the report as JSON to this file");

    /** The core's options, in the order the options table lists them. */
    public static final List<Option<?>> CORE = List.of(ENABLED, PROMETHEUS, PROMETHEUS_HOST,
        PROMETHEUS_PORT, PROMETHEUS_USER, PROMETHEUS_PASSWORD_FILE, PROMETHEUS_KEYSTORE, PROMETHEUS_KEYSTORE_PASSWORD_FILE,
        PROMETHEUS_JVM, PROMETHEUS_HISTOGRAM, REPORT, REPORT_INTERVAL, REPORT_JSON);

    /**
     * Turns an option's text into its value.
     *
     * <p>mech's own parsers are classes, not lambdas: every option is made in premain, on the
     * host's start path, where linking a lambda's call site costs about half a millisecond and a
     * class from the jar a tenth of that.
     *
     * @param <T> the value's type
     */
    @FunctionalInterface
    public interface Parser<T> {
        /**
         * @param text the option's text, trimmed
         * @return its value
         * @throws IllegalArgumentException when the text is no value of the option
         */
        T parse(String text);
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
        static final Bounds ANY = new Bounds(0, Long.MAX_VALUE, true, "a duration such as 5s, 1ms or 250us");

        /** @return durations of at least {@code min} */
        public static Bounds from(final String min) {
            return new Bounds(Durations.parseNanos(min), Long.MAX_VALUE, false, "a duration of at least " + min);
        }

        /** @return durations from {@code min} to {@code max} */
        public static Bounds between(final String min, final String max) {
            return new Bounds(Durations.parseNanos(min), Durations.parseNanos(max), false, "a duration from " + min + " to " + max);
        }

        static Bounds zeroOrFrom(final String min) {
            return new Bounds(Durations.parseNanos(min), Long.MAX_VALUE, true, "0, or a duration of at least " + min);
        }

        long check(final long nanos) {
            if (nanos == 0 && zeroOff || nanos >= minNanos && nanos <= maxNanos) {
                return nanos;
            }
            throw new IllegalArgumentException(expected);
        }
    }

    public final String key;
    /** The default as the options table shows it. */
    public final String defaultValue;
    public final String description;
    private final String expected;
    private final Parser<T> parser;
    /** The default, parsed once, as the class is made: a default that does not parse is mech's own bug, found at once. */
    private final T defaultParsed;

    private Option(final String key, final String defaultValue, final String expected, final Parser<T> parser, final String description) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.expected = expected;
        this.parser = parser;
        this.description = description;
        this.defaultParsed = parser.parse(defaultValue.trim());
    }

    /**
     * An option of a type of its own.
     *
     * @param key          the key
     * @param defaultValue the default, as text
     * @param expected     what it takes, as a warning and the options table say it
     * @param parser       turns its text into its value
     * @param description  what it does, for the options table
     * @param <V>          its value's type
     * @return the option
     */
    public static <V> Option<V> of(final String key, final String defaultValue, final String expected, final Parser<V> parser,
                                   final String description) {
        return new Option<>(key, defaultValue, expected, parser, description);
    }

    /** @return an option that takes true or false (also on/off, yes/no) */
    public static Option<Boolean> bool(final String key, final String defaultValue, final String description) {
        return of(key, defaultValue, "true or false", Truth.PARSER, description);
    }

    /** @return an option that switches something on or off (also true/false, yes/no) */
    public static Option<Boolean> onOff(final String key, final String defaultValue, final String description) {
        return of(key, defaultValue, "on or off", Truth.PARSER, description);
    }

    /** @return a duration option, in nanoseconds */
    public static Option<Long> duration(final String key, final String defaultValue, final String description) {
        return duration(key, defaultValue, Bounds.ANY, description);
    }

    /** @return a duration option, in nanoseconds, whose values the bounds limit */
    public static Option<Long> duration(final String key, final String defaultValue, final Bounds bounds, final String description) {
        return of(key, defaultValue, bounds.expected(), new BoundedDuration(bounds), description);
    }

    /** @return a TCP port option */
    public static Option<Integer> port(final String key, final String defaultValue, final String description) {
        return of(key, defaultValue, "a port number from 0 to 65535", Port.PARSER, description);
    }

    /** @return a percentage option above 0 and at most 100 (a trailing % optional), as a fraction of 1 */
    public static Option<Double> percent(final String key, final String defaultValue, final String description) {
        return of(key, defaultValue, "a percentage above 0% and at most 100%, such as 70%", Percent.PARSER, description);
    }

    /** @return a count option of at least 1 */
    public static Option<Long> count(final String key, final String defaultValue, final String description) {
        return of(key, defaultValue, "a whole number of at least 1", Count.PARSER, description);
    }

    /** @return an option of any text, a path for instance */
    public static Option<String> text(final String key, final String defaultValue, final String description) {
        return of(key, defaultValue, "text", Text.PARSER, description);
    }

    /** @return an option that takes one of an enum's constants, by its name in lower case */
    public static <E extends Enum<E>> Option<E> choice(final String key, final Class<E> type, final String defaultValue,
                                                       final String description) {
        final E[] constants = type.getEnumConstants();
        final StringJoiner names = new StringJoiner(", ");
        for (int i = 0; i < constants.length - 1; i++) {
            names.add(constants[i].name().toLowerCase(Locale.ROOT));
        }
        final String last = constants[constants.length - 1].name().toLowerCase(Locale.ROOT);
        return of(key, defaultValue, constants.length == 1 ? last : names + " or " + last, new Constant<>(constants), description);
    }

    /**
     * @param text the option's text
     * @return its value
     * @throws IllegalArgumentException when the text is no value of this option
     */
    public T parse(final String text) {
        return parser.parse(text.trim());
    }

    /** @return the default's value */
    public T defaultParsed() {
        return defaultParsed;
    }

    /** What the option takes, as a warning and the options table say it. */
    public String expected() {
        return expected;
    }

    /** The environment variable that sets this option. */
    public String environmentName() {
        return "MECH_" + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** The system property that sets this option. */
    public String propertyName() {
        return "mech." + key;
    }

    /** true or false, also on/off and yes/no. */
    private static final class Truth implements Parser<Boolean> {
        static final Truth PARSER = new Truth();

        @Override
        public Boolean parse(final String text) {
            switch (text.toLowerCase(Locale.ROOT)) {
                case "true":
                case "on":
                case "yes":
                    return Boolean.TRUE;
                case "false":
                case "off":
                case "no":
                    return Boolean.FALSE;
                default:
                    throw new IllegalArgumentException("not a truth value");
            }
        }
    }

    /** A duration within bounds, in nanoseconds. */
    private static final class BoundedDuration implements Parser<Long> {
        private final Bounds bounds;

        BoundedDuration(final Bounds bounds) {
            this.bounds = bounds;
        }

        @Override
        public Long parse(final String text) {
            return bounds.check(Durations.parseNanos(text));
        }
    }

    /** A TCP port, 0 included. */
    private static final class Port implements Parser<Integer> {
        static final Port PARSER = new Port();

        @Override
        public Integer parse(final String text) {
            final int port = Integer.parseInt(text);
            if (port < 0 || port > 65_535) {
                throw new IllegalArgumentException("out of range");
            }
            return port;
        }
    }

    /** A percentage above 0 and at most 100, a trailing % optional, as a fraction of 1. */
    private static final class Percent implements Parser<Double> {
        static final Percent PARSER = new Percent();

        @Override
        public Double parse(final String text) {
            final double percent = Double.parseDouble(text.endsWith("%") ? text.substring(0, text.length() - 1) : text);
            if (!(percent > 0 && percent <= 100)) {
                throw new IllegalArgumentException("out of range");
            }
            return percent / 100;
        }
    }

    /** A whole number of at least 1. */
    private static final class Count implements Parser<Long> {
        static final Count PARSER = new Count();

        @Override
        public Long parse(final String text) {
            final long count = Long.parseLong(text);
            if (count < 1) {
                throw new IllegalArgumentException("below 1");
            }
            return count;
        }
    }

    /** Any text, as given. */
    private static final class Text implements Parser<String> {
        static final Text PARSER = new Text();

        @Override
        public String parse(final String text) {
            return text;
        }
    }

    /** One of an enum's constants, by its name in lower case. */
    private static final class Constant<E extends Enum<E>> implements Parser<E> {
        private final E[] constants;

        Constant(final E[] constants) {
            this.constants = constants;
        }

        @Override
        public E parse(final String text) {
            for (final E constant : constants) {
                if (constant.name().toLowerCase(Locale.ROOT).equals(text)) {
                    return constant;
                }
            }
            throw new IllegalArgumentException("not one of them");
        }
    }
}
