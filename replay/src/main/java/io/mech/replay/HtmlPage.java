package io.mech.replay;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * One self-contained HTML page: the summary table and both charts as inline SVG, with a small
 * inline script and no network access. The script gives the timeline a cursor readout, and marks
 * the page for automated checks: {@code data-charts-rendered} on the body counts the charts whose
 * lines have a drawn length, and any script error is written into {@code #script-errors}.
 */
final class HtmlPage {

    private static final String SCRIPT = String.join("\n",
        "(function () {",
        "  function fail(message) {",
        "    var pre = document.getElementById('script-errors') || document.body.appendChild(document.createElement('pre'));",
        "    pre.id = 'script-errors';",
        "    pre.textContent += message + '\\n';",
        "  }",
        "  window.addEventListener('error', function (e) { fail(String(e.message)); });",
        "  try {",
        "    var rendered = 0;",
        "    document.querySelectorAll('svg.chart').forEach(function (chart) {",
        "      var drawn = 0;",
        "      chart.querySelectorAll('path.series').forEach(function (p) { if (p.getTotalLength() > 0) { drawn++; } });",
        "      chart.setAttribute('data-drawn', String(drawn));",
        "      if (drawn > 0 && chart.getBBox().width > 0) { rendered++; }",
        "    });",
        "    var t = document.getElementById('timeline');",
        "    var cursor = t.querySelector('.cursor');",
        "    var readout = t.querySelector('.readout');",
        "    var t0 = Number(t.dataset.t0), t1 = Number(t.dataset.t1);",
        "    var left = Number(t.dataset.left), width = Number(t.dataset.width);",
        "    var top = Number(t.dataset.top), height = Number(t.dataset.height), ymax = Number(t.dataset.ymax);",
        "    t.addEventListener('mousemove', function (e) {",
        "      var box = t.getBoundingClientRect();",
        "      var x = e.clientX - box.left, y = e.clientY - box.top;",
        "      if (x < left || x > left + width) { cursor.setAttribute('visibility', 'hidden'); readout.textContent = ''; return; }",
        "      cursor.setAttribute('x1', x); cursor.setAttribute('x2', x); cursor.setAttribute('visibility', 'visible');",
        "      var when = new Date(t0 + (x - left) / width * (t1 - t0)).toISOString();",
        "      var value = Math.max(0, (top + height - y) / height * ymax);",
        "      readout.textContent = when + '  ' + value.toFixed(3) + ' ' + t.dataset.unit;",
        "    });",
        "    document.body.setAttribute('data-charts-rendered', String(rendered));",
        "  } catch (e) {",
        "    fail(String(e));",
        "  }",
        "})();");

    private HtmlPage() {
    }

    static String render(final Replay.Result result, final ReplayOptions options) {
        final double ratio = options.unitRatio;
        final StringBuilder s = new StringBuilder(1 << 16);
        s.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>mech replay: ")
            .append(Charts.escape(title(result))).append("</title>\n<style>\n")
            .append("body { font-family: sans-serif; margin: 24px; color: #222; }\n")
            .append("table { border-collapse: collapse; margin: 12px 0 24px; font-size: 13px; }\n")
            .append("th, td { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: right; }\n")
            .append("th:first-child, td:first-child { text-align: left; }\n")
            .append("svg.chart { display: block; margin-bottom: 16px; }\n</style>\n</head>\n<body>\n");
        s.append("<h1>mech replay: ").append(Charts.escape(title(result))).append("</h1>\n");
        s.append("<table>\n<tr><th>log</th><th>intervals</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th>"
            + "<th>p99.99</th><th>max</th><th>stalled</th><th>stall time &ge;</th></tr>\n");
        for (final View view : TextReport.summaryRows(result)) {
            final Histogram h = view.total();
            s.append("<tr><td>").append(Charts.escape(view.name())).append("</td><td>").append(view.intervals()).append("</td><td>")
                .append(h.getTotalCount()).append("</td>");
            for (final double p : new double[] {50.0, 90.0, 99.0, 99.9, 99.99}) {
                s.append("<td>").append(Values.value(h.getValueAtPercentile(p), ratio)).append("</td>");
            }
            s.append("<td>").append(Values.value(h.getMaxValue(), ratio)).append("</td><td>").append(view.stalledIntervals())
                .append("</td><td>").append(Values.value(view.stalledLowerBound(), ratio)).append("</td></tr>\n");
        }
        s.append("</table>\n<p>Values in ").append(Values.unit(ratio)).append(String.format(Locale.ROOT,
            ". Stalled: intervals whose max reached %s %s; stall time: the sum of their maxima, a lower bound.</p>%n",
            Values.value(options.stallThreshold, ratio), Values.unit(ratio)));
        s.append(Charts.spectrum(result, options, 0).replaceFirst("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" "));
        s.append(Charts.timeline(result, options, 0).replaceFirst("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" "));
        s.append("<script>\n").append(SCRIPT).append("\n</script>\n</body>\n</html>\n");
        return s.toString();
    }

    private static String title(final Replay.Result result) {
        return result.files().size() == 1 ? result.files().get(0).name() : result.files().size() + " logs merged";
    }
}
