package io.mech.replay;

import java.time.Instant;
import java.util.Locale;

/** How reports print values and times: Locale.ROOT numbers, UTC ISO-8601 times. */
final class Values {

    private Values() {
    }

    /** A recorded value divided by the unit ratio, with three decimals. */
    static String value(final long value, final double unitRatio) {
        return decimals(value / unitRatio);
    }

    /**
     * A number with three decimals, rounded half up. Interval tables of a day print hundreds of
     * thousands of numbers: String.format's garbage alone took the heap past 300 MiB.
     */
    static String decimals(final double v) {
        if (!Double.isFinite(v) || Math.abs(v) >= 1e15) {
            return String.format(Locale.ROOT, "%.3f", v);
        }
        final long thousandths = Math.round(Math.abs(v) * 1000.0);
        final StringBuilder s = new StringBuilder(24);
        if (v < 0 && thousandths != 0) {
            s.append('-');
        }
        final long fraction = thousandths % 1000;
        s.append(thousandths / 1000).append('.');
        if (fraction < 100) {
            s.append(fraction < 10 ? "00" : "0");
        }
        return s.append(fraction).toString();
    }

    /** The text right-aligned in a column of the width given. */
    static StringBuilder padLeft(final StringBuilder out, final String text, final int width) {
        for (int i = text.length(); i < width; i++) {
            out.append(' ');
        }
        return out.append(text);
    }

    /** The text left-aligned in a column of the width given. */
    static StringBuilder padRight(final StringBuilder out, final String text, final int width) {
        out.append(text);
        for (int i = text.length(); i < width; i++) {
            out.append(' ');
        }
        return out;
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
