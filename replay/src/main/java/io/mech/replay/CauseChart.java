package io.mech.replay;

import java.util.List;
import java.util.Map;

/**
 * The "why" chart: each interval's stall time stacked by cause, on the timeline's time axis, with
 * the control JVM's longest hiccup per interval drawn over it (dashed) when there is a control log.
 * With several logs a bucket stacks the stall time of all hosts in it.
 *
 * <p>At most one bar per horizontal pixel: of the buckets that fall on one pixel, the one with
 * the most stall time is drawn, so that no stall disappears in the drawing; the control line
 * takes the largest control hiccup on the pixel.
 */
final class CauseChart {

    /** Colours for mech's causes; other tags take the rest in turn. */
    private static final Map<String, String> COLOURS = Map.ofEntries(Map.entry("gc", "#ff7f0e"), Map.entry("safepoint", "#9467bd"),
        Map.entry("os", "#d62728"), Map.entry("mech", "#7f7f7f"), Map.entry("ttsp", "#17becf"), Map.entry("virtual", "#2ca02c"),
        Map.entry("throttled", "#8c564b"), Map.entry("runqueue", "#e377c2"), Map.entry("steal", "#bcbd22"),
        Map.entry("paging", "#1f77b4"), Map.entry("frozen", "#393b79"), Map.entry("unknown", "#c7c7c7"));
    private static final String[] OTHERS = {"#637939", "#8c6d31", "#843c39", "#7b4173"};
    private static final String CONTROL = "#000000";

    private CauseChart() {
    }

    /** Whether there is anything to say why: a tagged line or a control log. */
    static boolean drawn(final Replay.Result result) {
        return !result.causes().tags().isEmpty() || !result.causes().controlLogs().isEmpty();
    }

    static String colour(final List<String> tags, final int i) {
        final String known = COLOURS.get(tags.get(i));
        return known != null ? known : OTHERS[i % OTHERS.length];
    }

    /** The chart as an SVG element placed at {@code y}. */
    static String svg(final Replay.Result result, final ReplayOptions options, final int y) {
        final double ratio = options.unitRatio;
        final StallCauses causes = result.causes();
        final List<String> tags = causes.tags();
        final long[] range = Charts.timeRange(result);
        final long t0 = range[0];
        final long t1 = range[1];
        final int columns = Charts.WIDTH - Charts.LEFT - Charts.RIGHT;
        final long[][] stack = new long[columns][];
        final long[] stackTotal = new long[columns];
        for (final Map.Entry<Long, long[]> bucket : causes.stacks().entrySet()) {
            final int c = column(bucket.getKey(), t0, t1, columns);
            long total = 0;
            for (final long nanos : bucket.getValue()) {
                total += nanos;
            }
            if (total > stackTotal[c]) {
                stackTotal[c] = total;
                stack[c] = bucket.getValue();
            }
        }
        final long[] control = new long[columns];
        final boolean[] controlUsed = new boolean[columns];
        for (final Map.Entry<Long, Long> bucket : causes.control().entrySet()) {
            final int c = column(bucket.getKey(), t0, t1, columns);
            control[c] = Math.max(control[c], bucket.getValue());
            controlUsed[c] = true;
        }
        long top = 0;
        for (int c = 0; c < columns; c++) {
            top = Math.max(top, Math.max(stackTotal[c], control[c]));
        }
        final double yTop = Svg.niceCeiling(top / ratio);
        final Svg.Frame f = new Svg.Frame(Charts.LEFT, y + Charts.TOP, columns, Charts.HEIGHT - Charts.TOP - Charts.BOTTOM, 0,
            (t1 - t0) / 1000.0, yTop);
        final boolean control0 = !causes.controlLogs().isEmpty();
        final StringBuilder s = new StringBuilder();
        s.append("<svg class=\"chart\" id=\"causes\" x=\"0\" y=\"").append(y).append("\" width=\"").append(Charts.WIDTH)
            .append("\" height=\"").append(Charts.HEIGHT).append("\" data-series=\"").append(tags.size() + (control0 ? 1 : 0))
            .append("\">\n");
        s.append(Svg.title(f, "Why: stall time per interval by cause (" + Values.unit(ratio) + ")"
            + (result.logs() > 1 ? ", summed over " + result.logs() + " hosts" : "")
            + (control0 ? "; control JVM's longest hiccup dashed" : ""), y));
        Charts.timeAxis(s, f, t0, t1);
        Charts.yAxis(s, f, yTop, ratio, "stall time");
        final List<Integer> order = causes.byStallTime();
        final long total = causes.totalNanos();
        // A bar as wide as its interval when intervals are wider than a pixel, else a pixel.
        final double bar = Math.max(1.0, causes.bucketMillis() * (double) columns / (t1 - t0));
        for (final int i : order) {
            final StringBuilder d = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                if (stack[c] == null || i >= stack[c].length || stack[c][i] == 0) {
                    continue;
                }
                long below = 0;
                for (final int j : order) {
                    if (j == i) {
                        break;
                    }
                    below += j < stack[c].length ? stack[c][j] : 0;
                }
                final double x = f.left + c;
                d.append(d.length() == 0 ? "M" : " M").append(Svg.fmt(x)).append(' ').append(Svg.fmt(f.y(below / ratio)))
                    .append(" H").append(Svg.fmt(Math.min(f.left + columns, x + bar)))
                    .append(" V").append(Svg.fmt(f.y((below + stack[c][i]) / ratio)))
                    .append(" H").append(Svg.fmt(x)).append(" Z");
            }
            if (d.length() > 0) {
                s.append("<path class=\"series cause\" data-cause=\"").append(Svg.escape(tags.get(i))).append("\" fill=\"")
                    .append(colour(tags, i)).append("\" stroke=\"").append(colour(tags, i)).append("\" stroke-width=\"0.6\" d=\"")
                    .append(d).append("\"/>\n");
            }
        }
        if (control0) {
            final StringBuilder d = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                if (controlUsed[c]) {
                    d.append(d.length() == 0 ? "M" : " L").append(Svg.fmt(f.left + c + 0.5)).append(' ')
                        .append(Svg.fmt(f.y(control[c] / ratio)));
                }
            }
            if (d.length() > 0) {
                s.append("<path class=\"series control\" fill=\"none\" stroke=\"").append(CONTROL)
                    .append("\" stroke-width=\"1\" stroke-dasharray=\"4 3\" d=\"").append(d).append("\"/>\n");
            }
        }
        double ly = f.top + 10;
        final double lx = f.left + f.width + 16;
        for (final int i : order) {
            s.append("<rect x=\"").append(Svg.fmt(lx)).append("\" y=\"").append(Svg.fmt(ly - 6))
                .append("\" width=\"24\" height=\"12\" fill=\"").append(colour(tags, i)).append("\"/>\n");
            s.append(Svg.text(lx + 30, ly + 4, "start", tags.get(i) + " " + Values.share(causes.nanos(i), total)));
            ly += 18;
        }
        if (control0) {
            s.append("<line x1=\"").append(Svg.fmt(lx)).append("\" y1=\"").append(Svg.fmt(ly)).append("\" x2=\"")
                .append(Svg.fmt(lx + 24)).append("\" y2=\"").append(Svg.fmt(ly)).append("\" stroke=\"").append(CONTROL)
                .append("\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n");
            s.append(Svg.text(lx + 30, ly + 4, "start", "control JVM"));
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static int column(final long startMillis, final long t0, final long t1, final int columns) {
        return (int) Math.min(columns - 1, Math.max(0, (startMillis - t0) / (double) (t1 - t0) * columns));
    }
}
