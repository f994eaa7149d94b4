package io.mech.agent.options;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads durations written the way people write them: {@code 5s}, {@code 1ms}, {@code 250us}, {@code 1.5m}. */
final class Durations {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)");

    private Durations() {
    }

    /**
     * Parses a duration.
     *
     * @param text a number and a unit (ns, us, ms, s, m, h); a bare {@code 0} is also accepted
     * @return the duration in nanoseconds
     * @throws IllegalArgumentException when the text is not a duration
     */
    static long parseNanos(final String text) {
        final String trimmed = text.trim();
        if (trimmed.equals("0")) {
            return 0;
        }
        final Matcher m = DURATION.matcher(trimmed);
        if (!m.matches()) {
            throw new IllegalArgumentException("expected a duration such as 5s, 1ms or 250us");
        }
        final double nanos = Double.parseDouble(m.group(1)) * unitNanos(m.group(2));
        if (nanos > Long.MAX_VALUE) {
            throw new IllegalArgumentException("duration too long");
        }
        return Math.round(nanos);
    }

    private static double unitNanos(final String unit) {
        switch (unit) {
            case "ns":
                return 1;
            case "us":
                return 1e3;
            case "ms":
                return 1e6;
            case "s":
                return 1e9;
            case "m":
                return 60e9;
            default:
                return 3600e9;
        }
    }
}
