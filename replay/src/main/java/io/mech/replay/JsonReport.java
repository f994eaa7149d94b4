package io.mech.replay;

import io.mech.report.Json;
import io.mech.report.Percentiles;
import java.io.PrintStream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * The report as one JSON object, its percentiles named as the agent's report names them
 * ({@link Percentiles#key}), every value in {@code unit}: {@code unit}, {@code unit_ratio}, {@code views} (each with its
 * summary and percentile distribution, the rows of the {@code .hgrm}), {@code worst}, {@code causes}
 * (stall time by tag, with shares), {@code control_logs} and {@code control},
 * {@code allocation_stalls} when the logs have {@code allocation-stall} lines (every thread's
 * waits for memory: no cause, no part of the shares), a fleet's
 * {@code hosts} ranked (all of them) with {@code --per-file}, and {@code intervals} and
 * {@code moving_window} when asked for. Values are divided by the unit ratio.
 */
final class JsonReport {

    private JsonReport() {
    }

    static void write(final PrintStream out, final Replay.Result result, final ReplayOptions options) {
        final double ratio = options.unitRatio;
        final Json j = new Json(4096).beginObject().field("unit", Values.unit(ratio)).field("unit_ratio", ratio).beginArray("views");
        for (final View view : result.summaryRows()) {
            final Histogram h = view.total();
            j.beginObject().field("log", view.name()).field("intervals", view.intervals()).field("count", h.getTotalCount())
                .beginObject("percentiles");
            for (final double p : new double[] {50.0, 90.0, 99.0, 99.9, 99.99}) {
                j.field(Percentiles.key(p), h.getValueAtPercentile(p) / ratio);
            }
            j.field("max", h.getMaxValue() / ratio).endObject().field("stalled_intervals", view.stalledIntervals())
                .field("stall_threshold", view.stallThreshold() / ratio)
                .field("stall_time_lower_bound", view.stalledLowerBound() / ratio)
                .field("skipped_lines", view.skippedLines()).field("truncated", view.truncated())
                .beginArray("distribution");
            if (h.getTotalCount() > 0) {
                for (final HistogramIterationValue v : h.percentiles(options.ticks)) {
                    final double level = v.getPercentileLevelIteratedTo() / 100.0;
                    j.beginObject().field("value", v.getValueIteratedTo() / ratio).field("percentile", level)
                        .field("total_count", v.getTotalCountToThisValue());
                    if (level < 1.0) {
                        j.field("inverted", 1.0 / (1.0 - level));
                    }
                    j.endObject();
                }
            }
            j.endArray().endObject();
        }
        j.endArray().beginArray("worst");
        for (final WorstIntervals.Entry e : result.merged().worst().entries()) {
            j.beginObject().field("start", Values.time(e.startMillis())).field("log", e.source())
                .field("length_s", (e.endMillis() - e.startMillis()) / 1000.0).field("max", e.max() / ratio)
                .field(Percentiles.key(99), e.p99() / ratio).endObject();
        }
        j.endArray();
        causes(j, result.causes(), ratio);
        if (result.fleet() && !result.files().isEmpty()) {
            j.beginArray("hosts");
            for (final HostRanking.Host host : HostRanking.rank(result.files())) {
                final View view = host.view();
                j.beginObject().field("rank", host.rank()).field("log", view.name()).field("intervals", view.intervals())
                    .field("count", view.total().getTotalCount())
                    .field(Percentiles.key(50), view.total().getValueAtPercentile(50.0) / ratio).field(Percentiles.key(99), host.p99() / ratio)
                    .field(Percentiles.key(99.9), view.total().getValueAtPercentile(99.9) / ratio).field("max", host.max() / ratio)
                    .field("stalled_intervals", view.stalledIntervals())
                    .field("stall_time_lower_bound", view.stalledLowerBound() / ratio).endObject();
            }
            j.endArray();
        }
        if (options.intervals) {
            j.beginArray("intervals");
            final Timeline t = result.merged().timeline();
            for (int i = 0; i < t.size(); i++) {
                j.beginObject().field("start", Values.time(t.startMillis(i)))
                    .field("length_s", (t.endMillis(i) - t.startMillis(i)) / 1000.0).field("count", t.count(i))
                    .field(Percentiles.key(50), t.p50(i) / ratio).field(Percentiles.key(90), t.p90(i) / ratio)
                    .field(Percentiles.key(99), t.p99(i) / ratio)
                    .field("max", t.max(i) / ratio).endObject();
            }
            j.endArray();
        }
        final MovingWindow moving = result.moving();
        if (moving != null) {
            j.beginObject("moving_window").field("length_s", moving.lengthMillis() / 1000.0).field("percentile", moving.percentile())
                .beginArray("rows");
            for (int i = 0; i < moving.size(); i++) {
                j.beginObject().field("end", Values.time(moving.endMillis(i))).field("count", moving.count(i))
                    .field("value", moving.value(i) / ratio).field("max", moving.max(i) / ratio).endObject();
            }
            j.endArray().endObject();
        }
        out.println(j.endObject());
    }

    private static void causes(final Json j, final StallCauses causes, final double ratio) {
        j.beginArray("causes");
        final long total = causes.totalNanos();
        for (final int i : causes.byStallTime()) {
            j.beginObject().field("cause", causes.tags().get(i)).field("stalls", causes.stalls(i))
                .field("stall_time", causes.nanos(i) / ratio).field("share", total == 0 ? 0.0 : (double) causes.nanos(i) / total)
                .field("longest", causes.longest(i) / ratio).endObject();
        }
        j.endArray().beginArray("control_logs");
        for (final String log : causes.controlLogs()) {
            j.value(log);
        }
        j.endArray().beginObject("control").field("intervals", causes.controlIntervals())
            .field("stalled_intervals", causes.controlStalled())
            .field("stall_time_lower_bound", causes.controlStallNanos() / ratio).field("max", causes.controlLongest() / ratio)
            .endObject();
        if (causes.hasAllocationStallLines()) {
            j.beginObject("allocation_stalls").field("intervals", causes.allocationStallIntervals())
                .field("stalled_intervals", causes.allocationStalledIntervals()).field("stalls", causes.allocationStalls())
                .field("stall_time", causes.allocationStallNanos() / ratio).field("longest", causes.longestAllocationStall() / ratio)
                .endObject();
        }
    }
}
