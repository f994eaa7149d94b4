package io.mech.replay;

import java.util.Arrays;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A fleet's hosts drawn as one band on the percentile spectrum instead of a line each: at each
 * percentile, from the best host's value to the worst's, and at the right end from the smallest
 * host maximum to the largest.
 */
final class FleetBand {

    static final String COLOUR = "#1f77b4";
    /** Percentile steps along the log-scaled axis: 50 a decade, finer than a pixel column needs. */
    private static final double STEP = 0.02;

    private final double[] x;
    private final long[] lowest;
    private final long[] highest;

    private FleetBand(final double[] x, final long[] lowest, final long[] highest) {
        this.x = x;
        this.lowest = lowest;
        this.highest = highest;
    }

    /**
     * @param hosts one view per host
     * @param lastX where the merged curve's last percentile lies on the axis (log10 of 1/(1-p));
     *              the hosts' maxima are drawn half a decade beyond, as the merged curve's is
     */
    static FleetBand of(final List<View> hosts, final double lastX) {
        final int levels = (int) Math.floor(lastX / STEP) + 1;
        final double[] x = new double[levels + 1];
        final double[] percentiles = new double[levels];
        for (int k = 0; k < levels; k++) {
            x[k] = k * STEP;
            percentiles[k] = 100.0 * (1.0 - Math.pow(10, -x[k]));
        }
        x[levels] = lastX + 0.5;
        final long[] lowest = new long[levels + 1];
        final long[] highest = new long[levels + 1];
        Arrays.fill(lowest, Long.MAX_VALUE);
        final long[] values = new long[levels];
        for (final View host : hosts) {
            final Histogram h = host.total();
            if (h.getTotalCount() == 0) {
                continue;
            }
            valuesAt(h, percentiles, values);
            for (int k = 0; k < levels; k++) {
                lowest[k] = Math.min(lowest[k], values[k]);
                highest[k] = Math.max(highest[k], values[k]);
            }
            lowest[levels] = Math.min(lowest[levels], h.getMaxValue());
            highest[levels] = Math.max(highest[levels], h.getMaxValue());
        }
        for (int k = 0; k <= levels; k++) {
            lowest[k] = Math.min(lowest[k], highest[k]);
        }
        return new FleetBand(x, lowest, highest);
    }

    /**
     * The values at ascending percentiles, as {@link Histogram#getValueAtPercentile} gives them, in
     * one walk over the histogram: a thousand packed hosts times hundreds of levels is otherwise
     * slow.
     */
    static void valuesAt(final Histogram h, final double[] percentiles, final long[] out) {
        final long total = h.getTotalCount();
        int k = 0;
        long running = 0;
        for (final HistogramIterationValue v : h.recordedValues()) {
            running += v.getCountAtValueIteratedTo();
            while (k < percentiles.length && running >= IntervalCounts.countAtPercentile(percentiles[k], total)) {
                out[k] = percentiles[k] == 0.0 ? h.lowestEquivalentValue(v.getValueIteratedTo()) : v.getValueIteratedTo();
                k++;
            }
        }
        while (k < percentiles.length) {
            out[k++] = 0;
        }
    }

    int size() {
        return x.length;
    }

    long highest(final int k) {
        return highest[k];
    }

    /** The band as a filled SVG path: along the worst hosts' values, back along the best hosts'. */
    String path(final Svg.Frame f, final double ratio) {
        final StringBuilder d = new StringBuilder();
        for (int k = 0; k < x.length; k++) {
            d.append(k == 0 ? "M" : " L").append(Svg.fmt(f.x(x[k]))).append(' ').append(Svg.fmt(f.y(highest[k] / ratio)));
        }
        for (int k = x.length - 1; k >= 0; k--) {
            d.append(" L").append(Svg.fmt(f.x(x[k]))).append(' ').append(Svg.fmt(f.y(lowest[k] / ratio)));
        }
        return "<path class=\"series band\" fill=\"" + COLOUR + "\" fill-opacity=\"0.3\" stroke=\"" + COLOUR
            + "\" stroke-width=\"0.5\" d=\"" + d + " Z\"/>\n";
    }
}
