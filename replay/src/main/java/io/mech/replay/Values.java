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

    /**
     * What the {@code allocation-stall} lines hold, in one sentence; the HTML page says the same.
     * Each stall is a thread's wait, counted whole, where a cause's stall time is a lower bound.
     */
    static String allocationStalls(final StallCauses causes, final double ratio) {
        final String what = "Allocation stalls (ZGC), from the logs' allocation-stall lines: ";
        final String why = "; threads' waits for memory, each thread's apart, not the meter's stalls, so no part of the causes' shares";
        if (causes.allocationStalls() == 0) {
            return what + "none in " + causes.allocationStallIntervals() + " intervals" + why;
        }
        return what + causes.allocationStalls() + (causes.allocationStalls() == 1 ? " stall" : " stalls") + " in "
            + causes.allocationStalledIntervals() + " of " + causes.allocationStallIntervals() + " intervals, total "
            + value(causes.allocationStallNanos(), ratio) + " " + unit(ratio) + ", longest "
            + value(causes.longestAllocationStall(), ratio) + " " + unit(ratio) + why;
    }

    /** A tag's share of all tags' stall time, as a percentage with one decimal. */
    static String share(final long nanos, final long total) {
        return total == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * nanos / total);
    }

}
