package io.mech.replay;

import io.mech.report.Percentiles;
import java.io.PrintStream;
import java.util.Locale;

/**
 * The report as CSV: one table when {@code --csv-table} names it, so that a spreadsheet or a
 * CSV reader gets rows of one width; otherwise every table, separated by blank lines: first the
 * distribution exactly as HistogramLogProcessor's {@code -csv} {@code .hgrm}, then the summary,
 * the worst intervals, the stall time by cause, the control JVMs', a fleet's hosts ranked (all of
 * them) and the tables asked for. Values are divided by the unit ratio.
 */
final class CsvReport {

    private CsvReport() {
    }

    /** The tables, in the order the whole report writes them; {@code --csv-table} names one. */
    enum Table { DISTRIBUTION, SUMMARY, WORST, CAUSES, CONTROL, HOSTS, INTERVALS, MOVING }

    /** Writes the table {@code --csv-table} names, or every table that has rows, separated by blank lines. */
    static void write(final PrintStream out, final Replay.Result result, final ReplayOptions options) {
        if (options.csvTable != null) {
            write(options.csvTable, out, result, options);
            return;
        }
        boolean first = true;
        for (final Table table : Table.values()) {
            if (!written(table, result, options)) {
                continue;
            }
            if (!first) {
                out.println();
            }
            write(table, out, result, options);
            first = false;
        }
    }

    /** Whether the whole report holds the table: the optional ones only when asked for or when they have rows. */
    private static boolean written(final Table table, final Replay.Result result, final ReplayOptions options) {
        return switch (table) {
            case CONTROL -> !result.causes().controlLogs().isEmpty();
            case HOSTS -> result.fleet() && !result.files().isEmpty();
            case INTERVALS -> options.intervals;
            case MOVING -> result.moving() != null;
            default -> true;
        };
    }

    private static void write(final Table table, final PrintStream out, final Replay.Result result, final ReplayOptions options) {
        final double ratio = options.unitRatio;
        switch (table) {
            case DISTRIBUTION -> result.merged().total().outputPercentileDistribution(out, options.ticks, ratio, true);
            case SUMMARY -> {
                out.println("\"log\",\"intervals\",\"count\",\"p50\",\"p90\",\"p99\",\"p99.9\",\"p99.99\",\"max\","
                    + "\"stalled_intervals\",\"stall_time_lower_bound\",\"skipped_lines\",\"truncated\"");
                for (final View view : result.summaryRows()) {
                    final var h = view.total();
                    out.println(String.join(",", quoted(view.name()), Long.toString(view.intervals()), Long.toString(h.getTotalCount()),
                        Values.value(h.getValueAtPercentile(50.0), ratio), Values.value(h.getValueAtPercentile(90.0), ratio),
                        Values.value(h.getValueAtPercentile(99.0), ratio), Values.value(h.getValueAtPercentile(99.9), ratio),
                        Values.value(h.getValueAtPercentile(99.99), ratio), Values.value(h.getMaxValue(), ratio),
                        Long.toString(view.stalledIntervals()), Values.value(view.stalledLowerBound(), ratio),
                        Long.toString(view.skippedLines()), Boolean.toString(view.truncated())));
                }
            }
            case WORST -> {
                out.println("\"worst_start\",\"log\",\"length_s\",\"max\",\"p99\"");
                for (final WorstIntervals.Entry e : result.merged().worst().entries()) {
                    out.println(String.join(",", quoted(Values.time(e.startMillis())), quoted(e.source()),
                        String.format(Locale.ROOT, "%.3f", (e.endMillis() - e.startMillis()) / 1000.0),
                        Values.value(e.max(), ratio), Values.value(e.p99(), ratio)));
                }
            }
            case CAUSES -> {
                out.println("\"cause\",\"stalls\",\"stall_time\",\"share\",\"longest\"");
                final StallCauses causes = result.causes();
                for (final int i : causes.byStallTime()) {
                    out.println(String.join(",", quoted(causes.tags().get(i)), Long.toString(causes.stalls(i)),
                        Values.value(causes.nanos(i), ratio), String.format(Locale.ROOT, "%.4f",
                            causes.totalNanos() == 0 ? 0.0 : (double) causes.nanos(i) / causes.totalNanos()),
                        Values.value(causes.longest(i), ratio)));
                }
            }
            case CONTROL -> {
                final StallCauses causes = result.causes();
                out.println("\"control_logs\",\"intervals\",\"stalled_intervals\",\"stall_time_lower_bound\",\"max\"");
                if (!causes.controlLogs().isEmpty()) {
                    out.println(String.join(",", quoted(String.join(" ", causes.controlLogs())), Long.toString(causes.controlIntervals()),
                        Long.toString(causes.controlStalled()), Values.value(causes.controlStallNanos(), ratio),
                        Values.value(causes.controlLongest(), ratio)));
                }
            }
            case HOSTS -> {
                out.println("\"rank\",\"log\",\"intervals\",\"p50\",\"p99\",\"p99.9\",\"max\",\"stalled_intervals\","
                    + "\"stall_time_lower_bound\"");
                for (final HostRanking.Host host : HostRanking.rank(result.files())) {
                    final View view = host.view();
                    out.println(String.join(",", Integer.toString(host.rank()), quoted(view.name()), Long.toString(view.intervals()),
                        Values.value(view.total().getValueAtPercentile(50.0), ratio), Values.value(host.p99(), ratio),
                        Values.value(view.total().getValueAtPercentile(99.9), ratio), Values.value(host.max(), ratio),
                        Long.toString(view.stalledIntervals()), Values.value(view.stalledLowerBound(), ratio)));
                }
            }
            case INTERVALS -> {
                out.println("\"start\",\"length_s\",\"count\",\"p50\",\"p90\",\"p99\",\"max\"");
                final Timeline t = result.merged().timeline();
                for (int i = 0; i < t.size(); i++) {
                    out.println(String.join(",", quoted(Values.time(t.startMillis(i))),
                        Values.decimals((t.endMillis(i) - t.startMillis(i)) / 1000.0), Long.toString(t.count(i)),
                        Values.value(t.p50(i), ratio), Values.value(t.p90(i), ratio), Values.value(t.p99(i), ratio),
                        Values.value(t.max(i), ratio)));
                }
            }
            case MOVING -> {
                final MovingWindow moving = result.moving();
                out.println("\"end\",\"window_count\",\"p" + (moving == null ? "" : Percentiles.label(moving.percentile()))
                    + "\",\"max\"");
                for (int i = 0; moving != null && i < moving.size(); i++) {
                    out.println(String.join(",", quoted(Values.time(moving.endMillis(i))), Long.toString(moving.count(i)),
                        Values.value(moving.value(i), ratio), Values.value(moving.max(i), ratio)));
                }
            }
        }
    }

    private static String quoted(final String text) {
        return "\"" + text.replace("\"", "\"\"") + "\"";
    }
}
