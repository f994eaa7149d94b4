package io.mech.replay;

import java.time.Instant;
import java.util.Locale;

/** How reports print values and times: Locale.ROOT numbers, UTC ISO-8601 times. */
final class Values {

    private Values() {
    }

    /** A recorded value divided by the unit ratio, with three decimals as HistogramLogProcessor prints. */
    static String value(final long value, final double unitRatio) {
        return String.format(Locale.ROOT, "%.3f", value / unitRatio);
    }

    /** Milliseconds since the epoch as an ISO-8601 UTC time. */
    static String time(final long epochMillis) {
        return Instant.ofEpochMilli(epochMillis).toString();
    }

    /** The unit that a ratio from nanoseconds stands for, for headings. */
    static String unit(final double unitRatio) {
        if (unitRatio == 1.0) {
            return "ns";
        }
        if (unitRatio == 1_000.0) {
            return "us";
        }
        if (unitRatio == 1_000_000.0) {
            return "ms";
        }
        if (unitRatio == 1_000_000_000.0) {
            return "s";
        }
        return "ns/" + String.format(Locale.ROOT, "%s", unitRatio);
    }
}
