package io.mech.replay;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The report as CSV tables separated by blank lines: first the distribution exactly as
 * HistogramLogProcessor's {@code -csv} {@code .hgrm}, then the summary, the worst intervals, the
 * stall time by cause, a fleet's hosts ranked (all of them) and any tables asked for. Values are
 * divided by the unit ratio.
 */
final class CsvReport {

    private CsvReport() {
    }

    static void write(final PrintStream out, final Replay.Result result, final ReplayOptions options) {
        final double ratio = options.unitRatio;
        result.merged().total().outputPercentileDistribution(out, options.ticks, ratio, true);
        out.println();
        out.println("\"log\",\"intervals\",\"count\",\"p50\",\"p90\",\"p99\",\"p99.9\",\"p99.99\",\"max\","
            + "\"stalled_intervals\",\"stall_time_lower_bound\",\"skipped_lines\",\"truncated\"");
        for (final View view : TextReport.summaryRows(result)) {
            final var h = view.total();
            out.println(String.join(",", quoted(view.name()), Long.toString(view.intervals()), Long.toString(h.getTotalCount()),
                Values.value(h.getValueAtPercentile(50.0), ratio), Values.value(h.getValueAtPercentile(90.0), ratio),
                Values.value(h.getValueAtPercentile(99.0), ratio), Values.value(h.getValueAtPercentile(99.9), ratio),
                Values.value(h.getValueAtPercentile(99.99), ratio), Values.value(h.getMaxValue(), ratio),
                Long.toString(view.stalledIntervals()), Values.value(view.stalledLowerBound(), ratio),
                Long.toString(view.skippedLines()), Boolean.toString(view.truncated())));
        }
        out.println();
        out.println("\"worst_start\",\"log\",\"length_s\",\"max\",\"p99\"");
        for (final WorstIntervals.Entry e : result.merged().worst().entries()) {
            out.println(String.join(",", quoted(Values.time(e.startMillis())), quoted(e.source()),
                String.format(Locale.ROOT, "%.3f", (e.endMillis() - e.startMillis()) / 1000.0),
                Values.value(e.max(), ratio), Values.value(e.p99(), ratio)));
        }
        out.println();
        out.println("\"cause\",\"stalls\",\"stall_time\",\"share\",\"longest\"");
        final StallCauses causes = result.causes();
        for (final int i : TextReport.byStallTime(causes)) {
            out.println(String.join(",", quoted(causes.tags().get(i)), Long.toString(causes.stalls(i)),
                Values.value(causes.nanos(i), ratio), String.format(Locale.ROOT, "%.4f",
                    causes.totalNanos() == 0 ? 0.0 : (double) causes.nanos(i) / causes.totalNanos()),
                Values.value(causes.longest(i), ratio)));
        }
        if (result.fleet() && !result.files().isEmpty()) {
            out.println();
            out.println("\"rank\",\"log\",\"intervals\",\"p50\",\"p99\",\"p99.9\",\"max\",\"stalled_intervals\",\"stall_time_lower_bound\"");
            for (final HostRanking.Host host : HostRanking.rank(result.files())) {
                final View view = host.view();
                out.println(String.join(",", Integer.toString(host.rank()), quoted(view.name()), Long.toString(view.intervals()),
                    Values.value(view.total().getValueAtPercentile(50.0), ratio), Values.value(host.p99(), ratio),
                    Values.value(view.total().getValueAtPercentile(99.9), ratio), Values.value(host.max(), ratio),
                    Long.toString(view.stalledIntervals()), Values.value(view.stalledLowerBound(), ratio)));
            }
        }
        if (options.intervals) {
            out.println();
            out.println("\"start\",\"length_s\",\"count\",\"p50\",\"p90\",\"p99\",\"max\"");
            final Timeline t = result.merged().timeline();
            for (int i = 0; i < t.size(); i++) {
                out.println(String.join(",", quoted(Values.time(t.startMillis(i))),
                    Values.decimals((t.endMillis(i) - t.startMillis(i)) / 1000.0), Long.toString(t.count(i)),
                    Values.value(t.p50(i), ratio), Values.value(t.p90(i), ratio), Values.value(t.p99(i), ratio),
                    Values.value(t.max(i), ratio)));
            }
        }
        final MovingWindow moving = result.moving();
        if (moving != null) {
            out.println();
            out.println("\"end\",\"window_count\",\"p" + TextReport.percentileLabel(moving.percentile()) + "\",\"max\"");
            for (int i = 0; i < moving.size(); i++) {
                out.println(String.join(",", quoted(Values.time(moving.endMillis(i))), Long.toString(moving.count(i)),
                    Values.value(moving.value(i), ratio), Values.value(moving.max(i), ratio)));
            }
        }
    }

    private static String quoted(final String text) {
        return "\"" + text.replace("\"", "\"\"") + "\"";
    }
}
