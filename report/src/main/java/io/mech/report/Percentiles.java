package io.mech.report;


/**
 * The one naming of percentiles in mech's JSON, the agent's report and replay's alike: {@code p50},
 * {@code p99_9}, {@code p99_99}; a value's unit follows as a suffix where the document has no
 * unit of its own ({@code p99_9_ms} in the agent's report, whose durations are milliseconds).
 */
public final class Percentiles {

    private Percentiles() {
    }

    /**
     * @param percentile a percentile, such as 99.9
     * @return its JSON key, such as {@code p99_9}
     */
    public static String key(final double percentile) {
        return "p" + label(percentile).replace('.', '_');
    }

    /**
     * @param percentile a percentile, such as 99.9 or 50
     * @return how a person reads it: {@code 99.9}, {@code 50}
     */
    public static String label(final double percentile) {
        final String text = Double.toString(percentile);
        return text.endsWith(".0") ? text.substring(0, text.length() - 2) : text;
    }
}
