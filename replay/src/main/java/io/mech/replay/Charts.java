package io.mech.replay;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Draws the two charts as SVG: the percentile spectrum (x log-scaled by 1/(1-p), as HdrHistogram's
 * plotter draws it) and the timeline of each interval's max and 99th percentile. Each log is one
 * colour; with several logs the merged view is drawn in black on top.
 *
 * <p>A timeline has at most one point per horizontal pixel: the intervals that fall on one pixel
 * are drawn as their largest max and largest p99, so that no spike disappears in the drawing.
 */
final class Charts {

    static final int WIDTH = 1100;
    static final int HEIGHT = 420;
    static final int LEFT = 70;
    static final int RIGHT = 200;
    static final int TOP = 40;
    static final int BOTTOM = 50;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
        "#17becf", "#bcbd22", "#7f7f7f"};

    private Charts() {
    }

    /** The views drawn line by line: each log and the merged view, or a fleet's merged view alone. */
    private static List<View> drawn(final Replay.Result result) {
        if (result.fleet()) {
            return List.of(result.merged());
        }
        final List<View> views = new ArrayList<>(result.files());
        if (result.files().size() > 1) {
            views.add(result.merged());
        }
        return views;
    }

    private static String colour(final Replay.Result result, final int i) {
        return result.fleet() || result.files().size() > 1 && i == result.files().size() ? "#000000" : COLOURS[i % COLOURS.length];
    }

    /** The charts stacked in one SVG document: spectrum, timeline and, when the logs say why, the causes. */
    static String svgDocument(final Replay.Result result, final ReplayOptions options) {
        final boolean causes = CauseChart.drawn(result);
        final int height = (causes ? 3 : 2) * HEIGHT;
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + WIDTH + "\" height=\"" + height + "\" viewBox=\"0 0 "
            + WIDTH + " " + height + "\">\n" + spectrum(result, options, 0) + timeline(result, options, HEIGHT)
            + (causes ? CauseChart.svg(result, options, 2 * HEIGHT) : "") + "</svg>\n";
    }

    /** The percentile spectrum as an SVG element placed at {@code y}. */
    static String spectrum(final Replay.Result result, final ReplayOptions options, final int y) {
        final double ratio = options.unitRatio;
        final List<View> views = drawn(result);
        final List<double[][]> curves = new ArrayList<>();
        double maxX = 2;
        double maxY = 0;
        for (final View view : views) {
            final Histogram h = view.total();
            final List<double[]> points = new ArrayList<>();
            if (h.getTotalCount() > 0) {
                for (final HistogramIterationValue v : h.percentiles(options.ticks)) {
                    final double p = v.getPercentileLevelIteratedTo() / 100.0;
                    if (p >= 1.0) {
                        break;
                    }
                    points.add(new double[] {Math.log10(1.0 / (1.0 - p)), v.getValueIteratedTo() / ratio});
                }
                final double lastX = points.isEmpty() ? 0 : points.get(points.size() - 1)[0];
                points.add(new double[] {lastX + 0.5, h.getMaxValue() / ratio});
            }
            for (final double[] point : points) {
                maxX = Math.max(maxX, point[0]);
                maxY = Math.max(maxY, point[1]);
            }
            curves.add(points.toArray(new double[0][]));
        }
        final FleetBand band = result.fleet() && !result.files().isEmpty() && curves.get(0).length > 0
            ? FleetBand.of(result.files(), curves.get(0)[curves.get(0).length - 1][0] - 0.5) : null;
        if (band != null) {
            for (int k = 0; k < band.size(); k++) {
                maxY = Math.max(maxY, band.highest(k) / ratio);
            }
        }
        final double xTop = Math.ceil(maxX);
        final double yTop = Svg.niceCeiling(maxY);
        final Svg.Frame f = new Svg.Frame(LEFT, y + TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, 0, xTop, yTop);
        final StringBuilder s = new StringBuilder();
        s.append("<svg class=\"chart\" id=\"spectrum\" x=\"0\" y=\"").append(y).append("\" width=\"").append(WIDTH)
            .append("\" height=\"").append(HEIGHT).append("\" data-series=\"").append(views.size() + (band == null ? 0 : 1))
            .append("\">\n");
        s.append(Svg.title(f, "Hiccup by percentile (" + Values.unit(ratio) + ")"
            + (band == null ? "" : ", all " + result.files().size() + " hosts merged, and the band from the best host to the worst"), y));
        for (int decade = 0; decade <= (int) xTop; decade++) {
            final double px = f.x(decade);
            s.append(Svg.line(px, f.top, px, f.bottom(), "#e0e0e0"));
            s.append(Svg.text(px, f.bottom() + 18, "middle", percentileTick(decade)));
        }
        yAxis(s, f, yTop, ratio);
        if (band != null) {
            s.append(band.path(f, ratio));
        }
        for (int i = 0; i < curves.size(); i++) {
            final double[][] points = curves.get(i);
            final StringBuilder d = new StringBuilder();
            for (int k = 0; k < points.length; k++) {
                // A step at each percentile: the value holds until the next tick.
                if (k > 0) {
                    d.append(" H").append(Svg.fmt(f.x(points[k][0])));
                }
                d.append(k == 0 ? "M" : " V").append(k == 0 ? Svg.fmt(f.x(points[k][0])) + " " : "").append(Svg.fmt(f.y(points[k][1])));
            }
            s.append("<path class=\"series\" fill=\"none\" stroke-width=\"2\" stroke=\"").append(colour(result, i))
                .append("\" d=\"").append(d).append("\"/>\n");
        }
        legend(s, result, views, f, false);
        if (band != null) {
            final double ly = f.top + 10 + 18 * views.size();
            final double lx = f.left + f.width + 16;
            s.append("<rect x=\"").append(Svg.fmt(lx)).append("\" y=\"").append(Svg.fmt(ly - 6)).append("\" width=\"24\" height=\"12\" fill=\"")
                .append(FleetBand.COLOUR).append("\" fill-opacity=\"0.3\"/>\n");
            s.append(Svg.text(lx + 30, ly + 4, "start", "hosts, best to worst"));
        }
        s.append(Svg.text(f.left + f.width / 2.0, f.bottom() + 38, "middle", "percentile (log scale of 1/(1-p))"));
        s.append("</svg>\n");
        return s.toString();
    }

    /** The timeline of each interval's max (solid) and p99 (dashed) as an SVG element placed at {@code y}. */
    static String timeline(final Replay.Result result, final ReplayOptions options, final int y) {
        final double ratio = options.unitRatio;
        final List<View> views = drawn(result);
        final long[] range = timeRange(result);
        final long t0 = range[0];
        final long t1 = range[1];
        long maxValue = 0;
        for (final View view : views) {
            final Timeline t = view.timeline();
            for (int i = 0; i < t.size(); i++) {
                maxValue = Math.max(maxValue, t.max(i));
            }
        }
        final double yTop = Svg.niceCeiling(maxValue / ratio);
        final Svg.Frame f = new Svg.Frame(LEFT, y + TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, 0, (t1 - t0) / 1000.0, yTop);
        final StringBuilder s = new StringBuilder();
        s.append("<svg class=\"chart\" id=\"timeline\" x=\"0\" y=\"").append(y).append("\" width=\"").append(WIDTH)
            .append("\" height=\"").append(HEIGHT).append("\" data-series=\"").append(2 * views.size())
            .append("\" data-t0=\"").append(t0).append("\" data-t1=\"").append(t1).append("\" data-left=\"").append(f.left)
            .append("\" data-width=\"").append(f.width).append("\" data-top=\"").append(f.top - y).append("\" data-height=\"")
            .append(f.height).append("\" data-ymax=\"").append(yTop).append("\" data-unit=\"").append(Values.unit(ratio)).append("\">\n");
        s.append(Svg.title(f, "Hiccups over time, max and p99 per interval (" + Values.unit(ratio) + "), from "
            + Values.time(t0) + " to " + Values.time(t1), y));
        timeAxis(s, f, t0, t1);
        yAxis(s, f, yTop, ratio);
        for (int i = 0; i < views.size(); i++) {
            final Timeline t = views.get(i).timeline();
            final int columns = (int) f.width;
            final double[] maxima = new double[columns];
            final double[] p99 = new double[columns];
            final boolean[] used = new boolean[columns];
            final boolean[] gapBefore = new boolean[columns];
            for (int k = 0; k < t.size(); k++) {
                final int c = (int) Math.min(columns - 1, Math.max(0, (t.startMillis(k) - t0) / (double) (t1 - t0) * columns));
                maxima[c] = Math.max(maxima[c], t.max(k) / ratio);
                p99[c] = Math.max(p99[c], t.p99(k) / ratio);
                used[c] = true;
                // A log with no interval for a while (a stopped JVM, a lost file) shows as a break in the line.
                if (k > 0 && t.startMillis(k) - t.endMillis(k - 1) > (t.endMillis(k - 1) - t.startMillis(k - 1)) / 2) {
                    gapBefore[c] = true;
                }
            }
            s.append(series(f, maxima, used, gapBefore, colour(result, i), ""));
            s.append(series(f, p99, used, gapBefore, colour(result, i), " stroke-dasharray=\"4 3\" opacity=\"0.8\""));
        }
        legend(s, result, views, f, true);
        s.append("<line class=\"cursor\" x1=\"0\" x2=\"0\" y1=\"").append(Svg.fmt(f.top)).append("\" y2=\"").append(Svg.fmt(f.bottom()))
            .append("\" stroke=\"#888\" visibility=\"hidden\"/>\n<text class=\"readout\" x=\"").append(Svg.fmt(f.left + 4))
            .append("\" y=\"").append(Svg.fmt(f.top + 14)).append("\" font-size=\"12\" font-family=\"sans-serif\"></text>\n");
        s.append("</svg>\n");
        return s.toString();
    }

    /** The time the timeline spans, from its first start to its last end in ms: the time charts share it. */
    static long[] timeRange(final Replay.Result result) {
        long t0 = Long.MAX_VALUE;
        long t1 = Long.MIN_VALUE;
        for (final View view : drawn(result)) {
            final Timeline t = view.timeline();
            for (int i = 0; i < t.size(); i++) {
                t0 = Math.min(t0, t.startMillis(i));
                t1 = Math.max(t1, t.endMillis(i));
            }
        }
        if (t0 >= t1) {
            t0 = t1 == Long.MIN_VALUE ? 0 : t1 - 1000;
            t1 = t0 + 1000;
        }
        return new long[] {t0, t1};
    }

    /** Vertical grid lines and labels of elapsed time, shared by the time charts. */
    static void timeAxis(final StringBuilder s, final Svg.Frame f, final long t0, final long t1) {
        final double span = (t1 - t0) / 1000.0;
        final double unit = span >= 4 * 3600 ? 3600 : span >= 4 * 60 ? 60 : 1;
        final double step = Svg.niceStep(span / unit / 8) * unit;
        for (double at = 0; at <= span + 1e-9; at += step) {
            final double px = f.x(at);
            s.append(Svg.line(px, f.top, px, f.bottom(), "#e0e0e0"));
            s.append(Svg.text(px, f.bottom() + 18, "middle", Svg.elapsed(at, span)));
        }
        s.append(Svg.text(f.left + f.width / 2.0, f.bottom() + 38, "middle", "time since " + Values.time(t0)));
    }

    private static String series(final Svg.Frame f, final double[] values, final boolean[] used, final boolean[] gapBefore,
        final String colour, final String style) {
        final StringBuilder d = new StringBuilder();
        for (int c = 0; c < values.length; c++) {
            if (used[c]) {
                d.append(d.length() == 0 ? "M" : gapBefore[c] ? " M" : " L").append(Svg.fmt(f.left + c + 0.5)).append(' ')
                    .append(Svg.fmt(f.y(values[c])));
            }
        }
        if (d.length() == 0) {
            return "";
        }
        return "<path class=\"series\" fill=\"none\" stroke-width=\"1.2\" stroke=\"" + colour + "\"" + style + " d=\"" + d + "\"/>\n";
    }

    static void yAxis(final StringBuilder s, final Svg.Frame f, final double yTop, final double ratio) {
        yAxis(s, f, yTop, ratio, "hiccup");
    }

    static void yAxis(final StringBuilder s, final Svg.Frame f, final double yTop, final double ratio, final String what) {
        final double step = Svg.niceStep(yTop / 6);
        for (double v = 0; v <= yTop + step * 1e-9; v += step) {
            final double py = f.y(v);
            s.append(Svg.line(f.left, py, f.left + f.width, py, "#e0e0e0"));
            s.append(Svg.text(f.left - 6, py + 4, "end", Svg.trim(v)));
        }
        s.append(Svg.line(f.left, f.top, f.left, f.bottom(), "#000"));
        s.append(Svg.line(f.left, f.bottom(), f.left + f.width, f.bottom(), "#000"));
        s.append("<text x=\"16\" y=\"").append(Svg.fmt(f.top + f.height / 2)).append("\" font-size=\"12\" font-family=\"sans-serif\" "
            + "text-anchor=\"middle\" transform=\"rotate(-90 16 ").append(Svg.fmt(f.top + f.height / 2)).append(")\">").append(what).append(" (")
            .append(Values.unit(ratio)).append(")</text>\n");
    }

    private static void legend(final StringBuilder s, final Replay.Result result, final List<View> views, final Svg.Frame f,
        final boolean dashed) {
        double ly = f.top + 10;
        final double lx = f.left + f.width + 16;
        for (int i = 0; i < views.size() && i < 24; i++) {
            s.append(Svg.line(lx, ly, lx + 24, ly, colour(result, i)).replace("stroke-width=\"1\"", "stroke-width=\"2\""));
            s.append(Svg.text(lx + 30, ly + 4, "start", Svg.shorten(views.get(i).name())));
            ly += 18;
        }
        if (dashed) {
            ly += 8;
            s.append(Svg.line(lx, ly, lx + 24, ly, "#444"));
            s.append(Svg.text(lx + 30, ly + 4, "start", "max"));
            ly += 18;
            s.append("<line x1=\"").append(Svg.fmt(lx)).append("\" y1=\"").append(Svg.fmt(ly)).append("\" x2=\"").append(Svg.fmt(lx + 24))
                .append("\" y2=\"").append(Svg.fmt(ly)).append("\" stroke=\"#444\" stroke-width=\"1\" stroke-dasharray=\"4 3\"/>\n");
            s.append(Svg.text(lx + 30, ly + 4, "start", "p99"));
        }
    }

    private static String percentileTick(final int decade) {
        if (decade == 0) {
            return "0%";
        }
        return decade == 1 ? "90%" : "99" + (decade > 2 ? "." + "9".repeat(decade - 2) : "") + "%";
    }

}
