package io.mech.replay;

import java.io.PrintStream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The report as one JSON object: {@code unit}, {@code unit_ratio}, {@code views} (each with its
 * summary and percentile distribution, the rows of the {@code .hgrm}), {@code worst}, {@code causes}
 * (stall time by tag, with shares), {@code control_logs} and {@code control}, a fleet's
 * {@code hosts} ranked (all of them) with {@code --per-file}, and {@code intervals} and
 * {@code moving_window} when asked for. Values are divided by the unit ratio.
 */
final class JsonReport {

    private JsonReport() {
    }

    static void write(final PrintStream out, final Replay.Result result, final ReplayOptions options) {
        final double ratio = options.unitRatio;
        final StringBuilder j = new StringBuilder(4096);
        j.append("{\"unit\":").append(string(Values.unit(ratio))).append(",\"unit_ratio\":").append(ratio).append(",\"views\":[");
        boolean first = true;
        for (final View view : TextReport.summaryRows(result)) {
            j.append(first ? "" : ",");
            first = false;
            final Histogram h = view.total();
            j.append("{\"log\":").append(string(view.name())).append(",\"intervals\":").append(view.intervals())
                .append(",\"count\":").append(h.getTotalCount()).append(",\"percentiles\":{");
            final double[] ps = {50.0, 90.0, 99.0, 99.9, 99.99};
            for (final double p : ps) {
                j.append('"').append(TextReport.percentileLabel(p)).append("\":").append(h.getValueAtPercentile(p) / ratio).append(',');
            }
            j.append("\"max\":").append(h.getMaxValue() / ratio).append("},\"stalled_intervals\":").append(view.stalledIntervals())
                .append(",\"stall_threshold\":").append(view.stallThreshold() / ratio)
                .append(",\"stall_time_lower_bound\":").append(view.stalledLowerBound() / ratio)
                .append(",\"skipped_lines\":").append(view.skippedLines()).append(",\"truncated\":").append(view.truncated())
                .append(",\"distribution\":[");
            boolean firstRow = true;
            if (h.getTotalCount() > 0) {
                for (final HistogramIterationValue v : h.percentiles(options.ticks)) {
                    j.append(firstRow ? "" : ",");
                    firstRow = false;
                    final double level = v.getPercentileLevelIteratedTo() / 100.0;
                    j.append("{\"value\":").append(v.getValueIteratedTo() / ratio).append(",\"percentile\":").append(level)
                        .append(",\"total_count\":").append(v.getTotalCountToThisValue());
                    if (level < 1.0) {
                        j.append(",\"inverted\":").append(1.0 / (1.0 - level));
                    }
                    j.append('}');
                }
            }
            j.append("]}");
        }
        j.append("],\"worst\":[");
        first = true;
        for (final WorstIntervals.Entry e : result.merged().worst().entries()) {
            j.append(first ? "" : ",");
            first = false;
            j.append("{\"start\":").append(string(Values.time(e.startMillis()))).append(",\"log\":").append(string(e.source()))
                .append(",\"length_s\":").append((e.endMillis() - e.startMillis()) / 1000.0).append(",\"max\":")
                .append(e.max() / ratio).append(",\"p99\":").append(e.p99() / ratio).append('}');
        }
        j.append(']');
        causes(j, result.causes(), ratio);
        if (result.fleet() && !result.files().isEmpty()) {
            j.append(",\"hosts\":[");
            first = true;
            for (final HostRanking.Host host : HostRanking.rank(result.files())) {
                j.append(first ? "" : ",");
                first = false;
                final View view = host.view();
                j.append("{\"rank\":").append(host.rank()).append(",\"log\":").append(string(view.name()))
                    .append(",\"intervals\":").append(view.intervals()).append(",\"count\":").append(view.total().getTotalCount())
                    .append(",\"p50\":").append(view.total().getValueAtPercentile(50.0) / ratio)
                    .append(",\"p99\":").append(host.p99() / ratio)
                    .append(",\"p99.9\":").append(view.total().getValueAtPercentile(99.9) / ratio)
                    .append(",\"max\":").append(host.max() / ratio).append(",\"stalled_intervals\":").append(view.stalledIntervals())
                    .append(",\"stall_time_lower_bound\":").append(view.stalledLowerBound() / ratio).append('}');
            }
            j.append(']');
        }
        if (options.intervals) {
            j.append(",\"intervals\":[");
            final Timeline t = result.merged().timeline();
            for (int i = 0; i < t.size(); i++) {
                j.append(i == 0 ? "" : ",").append("{\"start\":").append(string(Values.time(t.startMillis(i))))
                    .append(",\"length_s\":").append((t.endMillis(i) - t.startMillis(i)) / 1000.0)
                    .append(",\"count\":").append(t.count(i)).append(",\"p50\":").append(t.p50(i) / ratio)
                    .append(",\"p90\":").append(t.p90(i) / ratio).append(",\"p99\":").append(t.p99(i) / ratio)
                    .append(",\"max\":").append(t.max(i) / ratio).append('}');
            }
            j.append(']');
        }
        final MovingWindow moving = result.moving();
        if (moving != null) {
            j.append(",\"moving_window\":{\"length_s\":").append(moving.lengthMillis() / 1000.0).append(",\"percentile\":")
                .append(moving.percentile()).append(",\"rows\":[");
            for (int i = 0; i < moving.size(); i++) {
                j.append(i == 0 ? "" : ",").append("{\"end\":").append(string(Values.time(moving.endMillis(i))))
                    .append(",\"count\":").append(moving.count(i)).append(",\"value\":").append(moving.value(i) / ratio)
                    .append(",\"max\":").append(moving.max(i) / ratio).append('}');
            }
            j.append("]}");
        }
        j.append("}");
        out.println(j);
    }

    private static void causes(final StringBuilder j, final StallCauses causes, final double ratio) {
        j.append(",\"causes\":[");
        final long total = causes.totalNanos();
        boolean first = true;
        for (final int i : TextReport.byStallTime(causes)) {
            j.append(first ? "" : ",");
            first = false;
            j.append("{\"cause\":").append(string(causes.tags().get(i))).append(",\"stalls\":").append(causes.stalls(i))
                .append(",\"stall_time\":").append(causes.nanos(i) / ratio)
                .append(",\"share\":").append(total == 0 ? 0.0 : (double) causes.nanos(i) / total)
                .append(",\"longest\":").append(causes.longest(i) / ratio).append('}');
        }
        j.append("],\"control_logs\":[");
        for (int i = 0; i < causes.controlLogs().size(); i++) {
            j.append(i == 0 ? "" : ",").append(string(causes.controlLogs().get(i)));
        }
        j.append("],\"control\":{\"intervals\":").append(causes.controlIntervals()).append(",\"stalled_intervals\":")
            .append(causes.controlStalled()).append(",\"stall_time_lower_bound\":").append(causes.controlStallNanos() / ratio)
            .append(",\"max\":").append(causes.controlLongest() / ratio).append('}');
    }

    static String string(final String text) {
        final StringBuilder s = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            switch (c) {
                case '"' -> s.append("\\\"");
                case '\\' -> s.append("\\\\");
                case '\n' -> s.append("\\n");
                case '\r' -> s.append("\\r");
                case '\t' -> s.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        s.append(String.format("\\u%04x", (int) c));
                    } else {
                        s.append(c);
                    }
                }
            }
        }
        return s.append('"').toString();
    }
}
