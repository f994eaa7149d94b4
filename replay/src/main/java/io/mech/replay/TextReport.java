package io.mech.replay;

import io.mech.report.Percentiles;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The report for people: the percentile distribution first, printed by HdrHistogram's own
 * {@code outputPercentileDistribution} exactly as HistogramLogProcessor's {@code .hgrm} prints it,
 * then the summary table, the worst intervals and any tables asked for.
 */
final class TextReport {

    /** The log column's least width. */
    private static final int LOG_COLUMN = 24;

    private TextReport() {
    }

    static void write(final PrintStream out, final Replay.Result result, final ReplayOptions options) {
        final double ratio = options.unitRatio;
        result.merged().total().outputPercentileDistribution(out, options.ticks, ratio, false);
        if (options.perFile && result.files().size() > 1 && !result.fleet()) {
            for (final View view : result.files()) {
                out.println();
                out.println("#[Percentile distribution of " + view.name() + "]");
                view.total().outputPercentileDistribution(out, options.ticks, ratio, false);
            }
        }
        out.println();
        final List<View> rows = result.summaryRows();
        out.println("#[Summary, values in " + Values.unit(ratio) + "; stalled: intervals whose max >= "
            + Values.value(options.stallThreshold, ratio) + " " + Values.unit(ratio)
            + ", max sum: the sum of their maxima, a lower bound of the stall time mech's report gives]");
        final String format = "%-" + width(rows.stream().map(View::name)) + "s %9s %12s %9s %9s %9s %9s %9s %9s %8s %12s%n";
        out.format(Locale.ROOT, format, "log", "intervals", "count", "p50", "p90", "p99", "p99.9", "p99.99", "max",
            "stalled", "max sum");
        for (final View view : rows) {
            final var h = view.total();
            out.format(Locale.ROOT, format, view.name(), view.intervals(), h.getTotalCount(),
                Values.value(h.getValueAtPercentile(50.0), ratio), Values.value(h.getValueAtPercentile(90.0), ratio),
                Values.value(h.getValueAtPercentile(99.0), ratio), Values.value(h.getValueAtPercentile(99.9), ratio),
                Values.value(h.getValueAtPercentile(99.99), ratio), Values.value(h.getMaxValue(), ratio),
                view.stalledIntervals(), Values.value(view.stalledLowerBound(), ratio));
        }
        if (result.fleet() && !result.files().isEmpty()) {
            hosts(out, result, ratio);
        }
        causes(out, result.causes(), options);
        for (final View view : rows) {
            if (view.skippedLines() > 0 || view.truncated()) {
                out.println("#[" + view.name() + ": " + view.skippedLines() + " damaged lines skipped"
                    + (view.truncated() ? ", incomplete last line ignored" : "") + "]");
            }
        }
        if (!result.merged().worst().entries().isEmpty()) {
            out.println();
            out.println("#[Worst intervals, by max, values in " + Values.unit(ratio) + "]");
            final String log = "%-" + width(result.merged().worst().entries().stream().map(WorstIntervals.Entry::source)) + "s";
            out.format(Locale.ROOT, "%-24s " + log + " %10s %9s %9s%n", "start (UTC)", "log", "length s", "max", "p99");
            for (final WorstIntervals.Entry e : result.merged().worst().entries()) {
                out.format(Locale.ROOT, "%-24s " + log + " %10.3f %9s %9s%n", Values.time(e.startMillis()), e.source(),
                    (e.endMillis() - e.startMillis()) / 1000.0, Values.value(e.max(), ratio), Values.value(e.p99(), ratio));
            }
        }
        if (options.intervals) {
            out.println();
            out.println("#[Intervals of " + result.merged().name() + ", values in " + Values.unit(ratio) + "]");
            final Timeline t = result.merged().timeline();
            out.format(Locale.ROOT, "%-24s %8s %10s %9s %9s %9s %9s%n", "start (UTC)", "length s", "count", "p50", "p90", "p99", "max");
            final StringBuilder row = new StringBuilder(128);
            for (int i = 0; i < t.size(); i++) {
                row.setLength(0);
                Values.padRight(row, Values.time(t.startMillis(i)), 24).append(' ');
                Values.padLeft(row, Values.decimals((t.endMillis(i) - t.startMillis(i)) / 1000.0), 8).append(' ');
                Values.padLeft(row, Long.toString(t.count(i)), 10).append(' ');
                Values.padLeft(row, Values.value(t.p50(i), ratio), 9).append(' ');
                Values.padLeft(row, Values.value(t.p90(i), ratio), 9).append(' ');
                Values.padLeft(row, Values.value(t.p99(i), ratio), 9).append(' ');
                Values.padLeft(row, Values.value(t.max(i), ratio), 9).append('\n');
                out.append(row);
            }
        }
        final MovingWindow moving = result.moving();
        if (moving != null) {
            out.println();
            out.format(Locale.ROOT, "#[Moving window of %.3f s, p%s and max, values in %s]%n", moving.lengthMillis() / 1000.0,
                Percentiles.label(moving.percentile()), Values.unit(ratio));
            out.format(Locale.ROOT, "%-24s %10s %9s %9s%n", "end (UTC)", "count", "p" + Percentiles.label(moving.percentile()), "max");
            final StringBuilder row = new StringBuilder(96);
            for (int i = 0; i < moving.size(); i++) {
                row.setLength(0);
                Values.padRight(row, Values.time(moving.endMillis(i)), 24).append(' ');
                Values.padLeft(row, Long.toString(moving.count(i)), 10).append(' ');
                Values.padLeft(row, Values.value(moving.value(i), ratio), 9).append(' ');
                Values.padLeft(row, Values.value(moving.max(i), ratio), 9).append('\n');
                out.append(row);
            }
        }
    }

    private static void hosts(final PrintStream out, final Replay.Result result, final double ratio) {
        final List<HostRanking.Host> ranked = HostRanking.rank(result.files());
        final List<HostRanking.Host> shown = HostRanking.shown(ranked);
        out.println();
        out.println("#[Hosts ranked by p99, then max, worst first" + (shown.size() < ranked.size()
            ? ": the " + HostRanking.SHOWN + " worst and the " + HostRanking.SHOWN + " best of " + ranked.size() : "")
            + ", values in " + Values.unit(ratio) + "]");
        final String format = "%5s %-" + width(shown.stream().map(host -> host.view().name())) + "s %9s %9s %9s %9s %9s %8s %12s%n";
        out.format(Locale.ROOT, format, "rank", "log", "intervals", "p50", "p99", "p99.9", "max", "stalled", "max sum");
        for (int i = 0; i < shown.size(); i++) {
            final HostRanking.Host host = shown.get(i);
            if (i > 0 && host.rank() != shown.get(i - 1).rank() + 1) {
                out.println("  ... " + (host.rank() - shown.get(i - 1).rank() - 1) + " hosts between");
            }
            final View view = host.view();
            out.format(Locale.ROOT, format, host.rank(), view.name(), view.intervals(),
                Values.value(view.total().getValueAtPercentile(50.0), ratio), Values.value(host.p99(), ratio),
                Values.value(view.total().getValueAtPercentile(99.9), ratio), Values.value(host.max(), ratio),
                view.stalledIntervals(), Values.value(view.stalledLowerBound(), ratio));
        }
    }

    private static void causes(final PrintStream out, final StallCauses causes, final ReplayOptions options) {
        final double ratio = options.unitRatio;
        out.println();
        if (options.tag != null && !StallCauses.isCause(options.tag)) {
            out.println("#[Stall time by cause: none shown, --tag " + options.tag + " selects lines that are no cause's]");
        } else if (causes.tags().isEmpty()) {
            out.println("#[Stall time by cause: the logs have no " + (options.tag != null ? options.tag : causes.hasAllocationStallLines()
                ? "cause" : "tagged") + " lines (mech writes one per cause with hiccup.causes on)]");
        } else {
            out.println("#[Stall time by cause" + (options.tag != null ? ", " + options.tag + " only (--tag)" : "")
                + ", from the logs' tagged lines; intervals: those with a stall of the cause; max sum: each one's longest stall"
                + " of the cause, summed (a lower bound); values in " + Values.unit(ratio) + "]");
            final String format = "%-16s %9s %12s %7s %9s%n";
            out.format(Locale.ROOT, format, "cause", "intervals", "max sum", "share", "longest");
            final long total = causes.totalNanos();
            for (final int i : causes.byStallTime()) {
                out.format(Locale.ROOT, format, causes.tags().get(i), causes.stalls(i), Values.value(causes.nanos(i), ratio),
                    Values.share(causes.nanos(i), total), Values.value(causes.longest(i), ratio));
            }
        }
        if (!causes.controlLogs().isEmpty()) {
            out.println("#[Control JVM" + (causes.controlLogs().size() > 1 ? "s (" + causes.controlLogs().size() + " logs)" : " ("
                + causes.controlLogs().get(0) + ")") + ": " + causes.controlStalled() + " of " + causes.controlIntervals()
                + " intervals stalled >= " + Values.value(options.stallThreshold, ratio) + " " + Values.unit(ratio)
                + ", max sum " + Values.value(causes.controlStallNanos(), ratio) + ", longest "
                + Values.value(causes.controlLongest(), ratio) + "; a stall both JVMs have lies outside the JVM]");
        }
        if (causes.hasAllocationStallLines()) {
            out.println("#[" + Values.allocationStalls(causes, ratio) + "]");
        }
    }

    /** A log column as wide as its longest name, 24 at least, so that the columns after it stay in line. */
    private static int width(final Stream<String> names) {
        return Math.max(LOG_COLUMN, names.mapToInt(String::length).max().orElse(0));
    }
}
