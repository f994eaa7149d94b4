package io.mech.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes each log's replayed intervals as OpenMetrics gauges time-stamped at the interval's end,
 * for {@code promtool tsdb create-blocks-from openmetrics}. The max carries the name the live
 * exporter uses ({@code mech_hiccup_interval_max_seconds}), so a backfilled incident sits next to
 * live data; a {@code log} label names the file. Values are taken as nanoseconds, the unit of mech's
 * and jHiccup's logs.
 *
 * <p>Samples of a series must go forward in time: an interval that does not start after the one
 * before it in the same log is left out.
 */
final class OpenMetricsExport {

    private enum Family {
        MAX("mech_hiccup_interval_max_seconds", "seconds", "Longest hiccup in the interval, replayed from a log."),
        P99("mech_hiccup_interval_p99_seconds", "seconds", "99th percentile hiccup in the interval, replayed from a log."),
        P50("mech_hiccup_interval_p50_seconds", "seconds", "Median hiccup in the interval, replayed from a log."),
        SAMPLES("mech_hiccup_interval_samples", "", "Hiccup samples recorded in the interval, replayed from a log.");

        final String metric;
        final String unit;
        final String help;

        Family(final String metric, final String unit, final String help) {
            this.metric = metric;
            this.unit = unit;
            this.help = help;
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

    static void write(final OutputStream o, final Replay.Result result) throws IOException {
        final StringBuilder s = new StringBuilder(1 << 16);
        for (final Family family : Family.values()) {
            s.append("# TYPE ").append(family.metric).append(" gauge\n");
            if (!family.unit.isEmpty()) {
                s.append("# UNIT ").append(family.metric).append(' ').append(family.unit).append('\n');
            }
            s.append("# HELP ").append(family.metric).append(' ').append(family.help).append('\n');
            for (final View view : result.files()) {
                final String series = family.metric + "{log=\"" + label(view.name()) + "\"} ";
                final Timeline t = view.timeline();
                long last = Long.MIN_VALUE;
                for (int i = 0; i < t.size(); i++) {
                    final long at = t.endMillis(i);
                    if (at <= last) {
                        continue;
                    }
                    last = at;
                    final long millis = Math.floorMod(at, 1000L);
                    s.append(series).append(family.value(t, i)).append(' ').append(Math.floorDiv(at, 1000L))
                        .append(millis < 10 ? ".00" : millis < 100 ? ".0" : ".").append(millis).append('\n');
                    if (s.length() > 1 << 16) {
                        o.write(s.toString().getBytes(StandardCharsets.UTF_8));
                        s.setLength(0);
                    }
                }
            }
        }
        s.append("# EOF\n");
        o.write(s.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String label(final String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
