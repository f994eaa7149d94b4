package io.mech.agent.options;

import java.util.HashMap;
import java.util.List;
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
 * Each value is parsed once, here, by its option's parser ({@link Option#parse}); {@link #get} hands
 * it out typed.
 *
 * <p>Reading never fails: an unknown key or a value of the wrong kind yields one warning line
 * that names the key and what was expected, and is otherwise ignored.
 */
public final class Options {

    /** Each option given, and valid, with its value; the others take their defaults. */
    private final Map<Option<?>, Object> values;
    private final int refused;

    private Options(final Map<Option<?>, Object> values, final int refused) {
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
    public static Options parse(final List<Option<?>> known, final String agentArgs, final Properties properties,
                                final Map<String, String> environment, final Consumer<String> warnings) {
        final Map<Option<?>, Object> values = new HashMap<>();
        final int[] problems = new int[1];
        final Consumer<String> counted = new Consumer<>() {
            @Override
            public void accept(final String problem) {
                problems[0]++;
                warnings.accept(problem);
            }
        };
        for (final Map.Entry<String, String> e : environment.entrySet()) {
            if (e.getKey().startsWith("MECH_")) {
                final Option<?> option = byEnvironmentName(known, e.getKey());
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

    private static Option<?> byKey(final List<Option<?>> known, final String key) {
        for (final Option<?> option : known) {
            if (option.key.equals(key)) {
                return option;
            }
        }
        return null;
    }

    private static Option<?> byEnvironmentName(final List<Option<?>> known, final String name) {
        for (final Option<?> option : known) {
            if (option.environmentName().equals(name)) {
                return option;
            }
        }
        return null;
    }

    private static void accept(final Map<Option<?>, Object> values, final Option<?> option, final List<Option<?>> known, final String key,
                               final String value, final String source, final Consumer<String> warnings) {
        if (option == null) {
            warnings.accept("unknown option '" + key + "' (" + source + "); ignored. Known options: " + knownKeys(known));
            return;
        }
        try {
            values.put(option, option.parse(value));
        } catch (final IllegalArgumentException e) {
            warnings.accept("option '" + option.key + "' (" + source + "): expected " + option.expected() + ", got '" + value + "'; ignored");
        }
    }

    private static String knownKeys(final List<Option<?>> known) {
        final StringJoiner keys = new StringJoiner(", ");
        for (final Option<?> option : known) {
            keys.add(option.key);
        }
        return keys.toString();
    }

    /** How many keys and values were refused (each with its warning): a key given twice counts too. */
    public int refused() {
        return refused;
    }

    /**
     * @param option an option, of mech's or a test's own part
     * @param <T>    its value's type
     * @return its value, parsed when the options were read; its default when it was not given
     */
    @SuppressWarnings("unchecked") // values holds, under each option, what that option's own parser returned
    public <T> T get(final Option<T> option) {
        final Object value = values.get(option);
        return value == null ? option.defaultParsed() : (T) value;
    }
}
