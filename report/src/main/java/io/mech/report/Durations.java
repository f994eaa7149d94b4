package io.mech.report;

/**
 * The one duration grammar of mech's command lines and options, the agent's and replay's alike:
 * a number and a unit ({@code 500us}, {@code 2ms}, {@code 1.5s}, {@code 5m}, {@code 1h}), or a bare
 * {@code 0}. A bare number other than 0 is refused with the reason: {@code --stall 2} read as 2 ns,
 * or 2 s, would be a guess.
 */
public final class Durations {

    /** The units, as a usage line names them. */
    public static final String UNITS = "ns, us, ms, s, m or h";

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
        // read by hand, not by a regular expression: options are parsed in premain, on the host's start-up path
        final int number = numberEnd(trimmed);
        final double unit = number > 0 ? unitNanos(trimmed.substring(number)) : -1;
        if (unit < 0) {
            throw new IllegalArgumentException(number == trimmed.length()
                ? "a duration needs a unit, " + UNITS + ", such as " + trimmed + "ms or " + trimmed + "s"
                : "not a duration such as 500us, 2ms or 1s");
        }
        final double nanos = Double.parseDouble(trimmed.substring(0, number)) * unit;
        if (nanos >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("a duration too long");
        }
        return Math.round(nanos);
    }

    /** Where the leading number, digits with an optional fraction of at least one digit, ends; 0 when there is none. */
    private static int numberEnd(final String text) {
        final int whole = digitsEnd(text, 0);
        if (whole == 0 || whole == text.length() || text.charAt(whole) != '.') {
            return whole;
        }
        final int fraction = digitsEnd(text, whole + 1);
        return fraction > whole + 1 ? fraction : 0;
    }

    private static int digitsEnd(final String text, final int from) {
        int at = from;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        return at;
    }

    /** A unit's nanoseconds; -1 for no unit, or one not known. */
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
            case "h":
                return 3600e9;
            default:
                return -1;
        }
    }
}
