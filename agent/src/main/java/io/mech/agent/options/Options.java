package io.mech.agent.options;

import io.mech.probes.profiler.ProfileEvent;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.StringJoiner;
import java.util.function.Consumer;

/**
 * The options mech runs with, read from three sources. Where a key is given in more than one,
 * the most specific wins: the agent argument ({@code -javaagent:mech.jar=key=value,...} or the
 * attach command's options), then the system property {@code -Dmech.key}, then the environment
 * variable {@code MECH_KEY}, then the default.
 *
 * <p>Reading never fails: an unknown key or a value of the wrong kind yields one warning line
 * that names the key and what was expected, and is otherwise ignored.
 */
public final class Options {

    private final Map<Option, String> values;
    private final int refused;

    private Options(final Map<Option, String> values, final int refused) {
        this.values = values;
        this.refused = refused;
    }

    /** The defaults alone. */
    public static Options defaults() {
        return new Options(Map.of(), 0);
    }

    /**
     * Reads the options.
     *
     * @param known       every option mech has: the core's, then each part's
     * @param agentArgs   the agent argument string, {@code key=value} pairs separated by commas; may be null
     * @param properties  the system properties
     * @param environment the environment variables
     * @param warnings    receives one line for each problem
     * @return the options, every one of them valid
     */
    public static Options parse(final List<Option> known, final String agentArgs, final Properties properties,
                                final Map<String, String> environment, final Consumer<String> warnings) {
        final Map<Option, String> values = new HashMap<>();
        final int[] problems = new int[1];
        final Consumer<String> counted = new Consumer<>() {
            @Override
            public void accept(final String problem) {
                problems[0]++;
                warnings.accept(problem);
            }
        };
        for (final Option option : known) {
            values.put(option, option.defaultValue);
        }
        for (final Map.Entry<String, String> e : environment.entrySet()) {
            if (e.getKey().startsWith("MECH_")) {
                final Option option = byEnvironmentName(known, e.getKey());
                accept(values, option, known, e.getKey(), e.getValue(), "environment variable " + e.getKey(), counted);
            }
        }
        for (final String name : properties.stringPropertyNames()) {
            if (name.startsWith("mech.")) {
                final String key = name.substring("mech.".length());
                accept(values, byKey(known, key), known, key, properties.getProperty(name), "-D" + name, counted);
            }
        }
        if (agentArgs != null && !agentArgs.isBlank()) {
            final Map<String, String> given = new HashMap<>();
            for (final String pair : agentArgs.split(",")) {
                final int eq = pair.indexOf('=');
                if (eq < 0) {
                    counted.accept("agent argument '" + pair.trim() + "' is not of the form key=value; ignored");
                    continue;
                }
                final String key = pair.substring(0, eq).trim();
                final String value = pair.substring(eq + 1).trim();
                final String earlier = given.put(key, value);
                if (earlier != null) {
                    counted.accept("option '" + key + "' is given twice in the agent argument ('" + earlier + "', then '"
                        + value + "'); the last is taken");
                }
                accept(values, byKey(known, key), known, key, value, "agent argument " + key, counted);
            }
        }
        return new Options(values, problems[0]);
    }

    private static Option byKey(final List<Option> known, final String key) {
        for (final Option option : known) {
            if (option.key.equals(key)) {
                return option;
            }
        }
        return null;
    }

    private static Option byEnvironmentName(final List<Option> known, final String name) {
        for (final Option option : known) {
            if (option.environmentName().equals(name)) {
                return option;
            }
        }
        return null;
    }

    private static void accept(final Map<Option, String> values, final Option option, final List<Option> known, final String key,
                               final String value, final String source, final Consumer<String> warnings) {
        if (option == null) {
            warnings.accept("unknown option '" + key + "' (" + source + "); ignored. Known options: " + knownKeys(known));
            return;
        }
        final String problem = check(option, value);
        if (problem != null) {
            warnings.accept("option '" + option.key + "' (" + source + "): expected " + option.expected()
                + ", got '" + value + "'" + problem + "; ignored");
            return;
        }
        values.put(option, value);
    }

    /** Null when the value fits the option's kind, else a note to append to the warning. */
    private static String check(final Option option, final String value) {
        switch (option.kind) {
            case BOOLEAN:
            case SWITCH:
                return truth(value) == null ? "" : null;
            case DURATION:
                try {
                    return option.bounds.contains(Durations.parseNanos(value)) ? null : "";
                } catch (final IllegalArgumentException e) {
                    return "";
                }
            case PORT:
                try {
                    final int port = Integer.parseInt(value.trim());
                    return port >= 0 && port <= 65_535 ? null : "";
                } catch (final NumberFormatException e) {
                    return "";
                }
            case PERCENT:
                return percent(value) > 0 && percent(value) <= 100 ? null : "";
            case COUNT:
                try {
                    return Long.parseLong(value.trim()) >= 1 ? null : "";
                } catch (final NumberFormatException e) {
                    return "";
                }
            case EVENT:
                try {
                    ProfileEvent.parse(value.trim());
                    return null;
                } catch (final IllegalArgumentException e) {
                    return "";
                }
            case HISTOGRAM:
                return value.trim().equals("native") || value.trim().equals("classic") ? null : "";
            case MODE:
                return value.trim().equals("trigger") || value.trim().equals("continuous") ? null : "";
            case JFR:
                return List.of("on", "demand", "off").contains(value.trim()) ? null : "";
            default:
                return null;
        }
    }

    /** The percentage a value names (a trailing % is optional), NaN when it names none. */
    private static double percent(final String value) {
        final String number = value.trim().endsWith("%") ? value.trim().substring(0, value.trim().length() - 1) : value.trim();
        try {
            return Double.parseDouble(number);
        } catch (final NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static Boolean truth(final String value) {
        switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true":
            case "on":
            case "yes":
                return Boolean.TRUE;
            case "false":
            case "off":
            case "no":
                return Boolean.FALSE;
            default:
                return null;
        }
    }

    private static String knownKeys(final List<Option> known) {
        final StringJoiner keys = new StringJoiner(", ");
        for (final Option option : known) {
            keys.add(option.key);
        }
        return keys.toString();
    }

    /** How many keys and values were refused (each with its warning): a key given twice counts too. */
    public int refused() {
        return refused;
    }

    /** The value of a boolean or on/off option. */
    public boolean flag(final Option option) {
        return truth(value(option));
    }

    /** The value of a duration option, in nanoseconds. */
    public long nanos(final Option option) {
        return Durations.parseNanos(value(option));
    }

    /** The value of a percent option, as a fraction of 1. */
    public double fraction(final Option option) {
        return percent(value(option)) / 100;
    }

    /** The value of a count option. */
    public long count(final Option option) {
        return Long.parseLong(value(option).trim());
    }

    /** The value of a port option. */
    public int port(final Option option) {
        return Integer.parseInt(value(option).trim());
    }

    /** The value of a text option; empty when unset. */
    public String text(final Option option) {
        return value(option).trim();
    }

    /** The option's value; its default for an option parsing did not know (a test's own part's). */
    private String value(final Option option) {
        return values.getOrDefault(option, option.defaultValue);
    }
}
