package io.mech.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.BitSet;

/**
 * Writes each log's replayed intervals as OpenMetrics samples time-stamped at the interval's end,
 * for {@code promtool tsdb create-blocks-from openmetrics}, under the names and labels a live
 * scrape has, so that a backfilled incident sits next to live data and answers the same queries:
 * the interval gauges with {@code jvm="host"} (and {@code thread="virtual"} for that meter's
 * lines, a {@code tag} label for another tag's), and, from the logs' cause lines, the counters {@code mech_hiccup_cause_seconds_total}
 * and {@code mech_hiccup_cause_stalls_total} by {@code cause}, counted from the log's start as
 * replay's cause table counts (each interval's longest stall of the cause: lower bounds). An
 * {@code instance} label names the log, where a live series has the scraped target. Values are
 * taken as nanoseconds, the unit of mech's and jHiccup's logs.
 *
 * <p>Samples of a series must go forward in time: an interval that does not start after the one
 * before it in the same log is left out.
 */
final class OpenMetricsExport {

    /** The families written: the interval gauges, then the counters from the cause lines, as the live exporter names them. */
    private enum Family {
        MAX("mech_hiccup_interval_max_seconds", "seconds", "Longest hiccup in the interval, replayed from a log."),
        P99("mech_hiccup_interval_p99_seconds", "seconds", "99th percentile hiccup in the interval, replayed from a log."),
        P50("mech_hiccup_interval_p50_seconds", "seconds", "Median hiccup in the interval, replayed from a log."),
        SAMPLES("mech_hiccup_interval_samples", "", "Hiccup samples recorded in the interval, replayed from a log."),
        CAUSE_SECONDS("mech_hiccup_cause_seconds", "seconds", "Stall time of the host JVM by cause, replayed from a log's cause lines."),
        CAUSE_STALLS("mech_hiccup_cause_stalls", "", "Stalls of the host JVM by cause, replayed from a log's cause lines.");

        final String metric;
        final String unit;
        final String help;

        Family(final String metric, final String unit, final String help) {
            this.metric = metric;
            this.unit = unit;
            this.help = help;
        }

        boolean counter() {
            return this == CAUSE_SECONDS || this == CAUSE_STALLS;
        }

        double value(final Timeline t, final int i) {
            return switch (this) {
                case MAX -> t.max(i) / 1e9;
                case P99 -> t.p99(i) / 1e9;
                case P50 -> t.p50(i) / 1e9;
                default -> t.count(i);
            };
        }
    }

    private OpenMetricsExport() {
    }

    static void write(final OutputStream o, final Replay.Result result, final String tag) throws IOException {
        final StringBuilder s = new StringBuilder(1 << 16);
        final String meter = "jvm=\"host\"" + (tag == null ? "" : "virtual".equals(tag) ? ",thread=\"virtual\"" : ",tag=\"" + label(tag) + "\"");
        for (final Family family : Family.values()) {
            s.append("# TYPE ").append(family.metric).append(family.counter() ? " counter\n" : " gauge\n");
            if (!family.unit.isEmpty()) {
                s.append("# UNIT ").append(family.metric).append(' ').append(family.unit).append('\n');
            }
            s.append("# HELP ").append(family.metric).append(' ').append(family.help).append('\n');
            for (final View view : result.files()) {
                if (family.counter()) {
                    if (view.causeCounts() != null) {
                        causeSamples(s, o, family, view, view.causeCounts(), result.causes());
                    }
                    continue;
                }
                final String series = family.metric + "{instance=\"" + label(view.name()) + "\"," + meter + "} ";
                final Timeline t = view.timeline();
                for (final int i : forward(t)) {
                    sample(s, series, family.value(t, i), t.endMillis(i));
                    flushIfLong(s, o);
                }
            }
        }
        s.append("# EOF\n");
        o.write(s.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** One cause's counter of one log, a sample at each interval's end: what its stalled lines to then add up to. */
    private static void causeSamples(final StringBuilder s, final OutputStream o, final Family family, final View view,
                                     final CauseCounts counts, final StallCauses causes) throws IOException {
        final Timeline t = view.timeline();
        final BitSet seen = counts.causes();
        for (int cause = seen.nextSetBit(0); cause >= 0; cause = seen.nextSetBit(cause + 1)) {
            final String series = family.metric + "_total{instance=\"" + label(view.name()) + "\",cause=\""
                + label(causes.tags().get(cause)) + "\"} ";
            long total = 0;
            int line = 0;
            for (final int i : forward(t)) {
                final long at = t.endMillis(i);
                for (; line < counts.size() && counts.endMillis(line) <= at; line++) {
                    if (counts.cause(line) == cause) {
                        total += family == Family.CAUSE_SECONDS ? counts.longestNanos(line) : 1;
                    }
                }
                sample(s, series, family == Family.CAUSE_SECONDS ? total / 1e9 : total, at);
                flushIfLong(s, o);
            }
        }
    }

    /** The intervals whose end comes after every earlier one's: a series' samples must go forward in time. */
    private static int[] forward(final Timeline t) {
        final int[] forward = new int[t.size()];
        int n = 0;
        long last = Long.MIN_VALUE;
        for (int i = 0; i < t.size(); i++) {
            if (t.endMillis(i) > last) {
                last = t.endMillis(i);
                forward[n++] = i;
            }
        }
        return Arrays.copyOf(forward, n);
    }

    private static void sample(final StringBuilder s, final String series, final double value, final long atMillis) {
        final long millis = Math.floorMod(atMillis, 1000L);
        s.append(series).append(value).append(' ').append(Math.floorDiv(atMillis, 1000L))
            .append(millis < 10 ? ".00" : millis < 100 ? ".0" : ".").append(millis).append('\n');
    }

    private static void flushIfLong(final StringBuilder s, final OutputStream o) throws IOException {
        if (s.length() > 1 << 16) {
            o.write(s.toString().getBytes(StandardCharsets.UTF_8));
            s.setLength(0);
        }
    }

    private static String label(final String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
