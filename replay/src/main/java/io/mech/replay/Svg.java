package io.mech.replay;

import java.util.Locale;

/**
 * The SVG toolkit replay's charts are drawn with: elements as text, a {@link Frame} that maps data
 * into a plot area, and the numbers axes are labelled with. It knows no chart; the charts
 * ({@link Charts}, {@link CauseChart}) know no SVG syntax beyond what they append themselves.
 */
final class Svg {

    private Svg() {
    }

    /** A chart's title above its frame. */
    static String title(final Frame f, final String title, final int y) {
        return "<text x=\"" + fmt(f.left) + "\" y=\"" + (y + 24) + "\" font-size=\"15\" font-weight=\"bold\" "
            + "font-family=\"sans-serif\">" + escape(title) + "</text>\n";
    }

    static String line(final double x1, final double y1, final double x2, final double y2, final String colour) {
        return "<line x1=\"" + fmt(x1) + "\" y1=\"" + fmt(y1) + "\" x2=\"" + fmt(x2) + "\" y2=\"" + fmt(y2) + "\" stroke=\""
            + colour + "\" stroke-width=\"1\"/>\n";
    }

    static String text(final double x, final double y, final String anchor, final String text) {
        return "<text x=\"" + fmt(x) + "\" y=\"" + fmt(y) + "\" font-size=\"12\" font-family=\"sans-serif\" text-anchor=\""
            + anchor + "\">" + escape(text) + "</text>\n";
    }

    static String escape(final String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    static String shorten(final String name) {
        return name.length() <= 26 ? name : "..." + name.substring(name.length() - 23);
    }

    /** Elapsed time in one unit for the whole axis, picked by its span, so that ticks read evenly. */
    static String elapsed(final double seconds, final double span) {
        if (span >= 4 * 3600) {
            return trim(seconds / 3600) + " h";
        }
        if (span >= 4 * 60) {
            return trim(seconds / 60) + " min";
        }
        return trim(seconds) + " s";
    }

    static String trim(final double v) {
        final String s = String.format(Locale.ROOT, "%.3f", v);
        return s.replaceAll("\\.?0+$", "");
    }

    static double niceCeiling(final double v) {
        if (v <= 0) {
            return 1;
        }
        final double step = niceStep(v / 6);
        return Math.ceil(v / step) * step;
    }

    static double niceStep(final double rough) {
        if (rough <= 0) {
            return 1;
        }
        final double magnitude = Math.pow(10, Math.floor(Math.log10(rough)));
        final double r = rough / magnitude;
        return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * magnitude;
    }

    static String fmt(final double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Maps data coordinates into the plot area. */
    static final class Frame {
        final double left;
        final double top;
        final double width;
        final double height;
        final double x0;
        final double x1;
        final double y1;

        Frame(final double left, final double top, final double width, final double height, final double x0, final double x1,
            final double y1) {
            this.left = left;
            this.top = top;
            this.width = width;
            this.height = height;
            this.x0 = x0;
            this.x1 = x1;
            this.y1 = y1;
        }

        double x(final double v) {
            return left + (v - x0) / (x1 - x0) * width;
        }

        double y(final double v) {
            return top + height - Math.min(v, y1) / y1 * height;
        }

        double bottom() {
            return top + height;
        }
    }
}
