package io.mech.report;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one duration grammar of mech's command lines and options, the agent's and replay's alike:
 * a number and a unit ({@code 500us}, {@code 2ms}, {@code 1.5s}, {@code 5m}, {@code 1h}), or a bare
 * {@code 0}. A bare number other than 0 is refused with the reason: {@code --stall 2} read as 2 ns,
 * or 2 s, would be a guess.
 */
public final class Durations {

    /** The units, as a usage line names them. */
    public static final String UNITS = "ns, us, ms, s, m or h";

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|ms|s|m|h)");
    private static final Pattern BARE = Pattern.compile("\\d+(?:\\.\\d+)?");

    private Durations() {
    }

    /**
     * Parses a duration.
     *
     * @param text a number and a unit; a bare {@code 0} is also taken
     * @return the duration in nanoseconds
     * @throws IllegalArgumentException when the text is not a duration, saying why
     */
    public static long parseNanos(final String text) {
        final String trimmed = text.trim();
        if (trimmed.equals("0")) {
            return 0;
        }
        final Matcher m = DURATION.matcher(trimmed);
        if (!m.matches()) {
            throw new IllegalArgumentException(BARE.matcher(trimmed).matches()
                ? "a duration needs a unit, " + UNITS + ", such as " + trimmed + "ms or " + trimmed + "s"
                : "not a duration such as 500us, 2ms or 1s");
        }
        final double nanos = Double.parseDouble(m.group(1)) * unitNanos(m.group(2));
        if (nanos >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("a duration too long");
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
