package io.mech.replay;

import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * One self-contained HTML page: the summary table, a fleet's hosts ranked, the stall time by cause,
 * and the charts as inline SVG (the spectrum, the timeline, and the causes when the logs have
 * them), with a small
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
            .append(Svg.escape(title(result))).append("</title>\n<style>\n")
            .append("body { font-family: sans-serif; margin: 24px; color: #222; }\n")
            .append("table { border-collapse: collapse; margin: 12px 0 24px; font-size: 13px; }\n")
            .append("th, td { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: right; }\n")
            .append("th:first-child, td:first-child, .log { text-align: left; }\n")
            .append("svg.chart { display: block; margin-bottom: 16px; }\n</style>\n</head>\n<body>\n");
        s.append("<h1>mech replay: ").append(Svg.escape(title(result))).append("</h1>\n");
        s.append("<table>\n<tr><th>log</th><th>intervals</th><th>count</th><th>p50</th><th>p90</th><th>p99</th><th>p99.9</th>"
            + "<th>p99.99</th><th>max</th><th>stalled</th><th>max sum</th></tr>\n");
        for (final View view : result.summaryRows()) {
            final Histogram h = view.total();
            s.append("<tr><td>").append(Svg.escape(view.name())).append("</td><td>").append(view.intervals()).append("</td><td>")
                .append(h.getTotalCount()).append("</td>");
            for (final double p : new double[] {50.0, 90.0, 99.0, 99.9, 99.99}) {
                s.append("<td>").append(Values.value(h.getValueAtPercentile(p), ratio)).append("</td>");
            }
            s.append("<td>").append(Values.value(h.getMaxValue(), ratio)).append("</td><td>").append(view.stalledIntervals())
                .append("</td><td>").append(Values.value(view.stalledLowerBound(), ratio)).append("</td></tr>\n");
        }
        s.append("</table>\n<p>Values in ").append(Values.unit(ratio)).append(String.format(Locale.ROOT,
            ". Stalled: intervals whose max reached %s %s; max sum: the sum of their maxima, a lower bound of the stall time mech's report "
                + "gives.</p>%n",
            Values.value(options.stallThreshold, ratio), Values.unit(ratio)));
        if (result.fleet() && !result.files().isEmpty()) {
            hosts(s, result, ratio);
        }
        causes(s, result.causes(), options);
        s.append(Charts.spectrum(result, options, 0).replaceFirst("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" "));
        s.append(Charts.timeline(result, options, 0).replaceFirst("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" "));
        if (CauseChart.drawn(result)) {
            s.append(CauseChart.svg(result, options, 0).replaceFirst("<svg ", "<svg xmlns=\"http://www.w3.org/2000/svg\" "));
        }
        s.append("<script>\n").append(SCRIPT).append("\n</script>\n</body>\n</html>\n");
        return s.toString();
    }

    private static void hosts(final StringBuilder s, final Replay.Result result, final double ratio) {
        final List<HostRanking.Host> ranked = HostRanking.rank(result.files());
        final List<HostRanking.Host> shown = HostRanking.shown(ranked);
        s.append("<h2>Hosts ranked by p99, then max").append(shown.size() < ranked.size() ? ": the " + HostRanking.SHOWN
            + " worst and the " + HostRanking.SHOWN + " best of " + ranked.size() : "").append("</h2>\n<table>\n")
            .append("<tr><th>rank</th><th class=\"log\">log</th><th>intervals</th><th>p50</th><th>p99</th><th>p99.9</th><th>max</th>"
                + "<th>stalled</th><th>max sum</th></tr>\n");
        for (int i = 0; i < shown.size(); i++) {
            final HostRanking.Host host = shown.get(i);
            if (i > 0 && host.rank() != shown.get(i - 1).rank() + 1) {
                s.append("<tr><td></td><td>&hellip; ").append(host.rank() - shown.get(i - 1).rank() - 1)
                    .append(" hosts between</td></tr>\n");
            }
            final View view = host.view();
            s.append("<tr><td>").append(host.rank()).append("</td><td class=\"log\">").append(Svg.escape(view.name()))
                .append("</td><td>")
                .append(view.intervals()).append("</td><td>").append(Values.value(view.total().getValueAtPercentile(50.0), ratio))
                .append("</td><td>").append(Values.value(host.p99(), ratio)).append("</td><td>")
                .append(Values.value(view.total().getValueAtPercentile(99.9), ratio)).append("</td><td>")
                .append(Values.value(host.max(), ratio)).append("</td><td>").append(view.stalledIntervals()).append("</td><td>")
                .append(Values.value(view.stalledLowerBound(), ratio)).append("</td></tr>\n");
        }
        s.append("</table>\n");
    }

    private static void causes(final StringBuilder s, final StallCauses causes, final ReplayOptions options) {
        if (causes.tags().isEmpty()) {
            return;
        }
        final double ratio = options.unitRatio;
        s.append("<h2>Why: stall time by cause</h2>\n<table id=\"causes-table\">\n<tr><th>cause</th><th>intervals</th>"
            + "<th>max sum</th><th>share</th><th>longest</th></tr>\n");
        final long total = causes.totalNanos();
        for (final int i : causes.byStallTime()) {
            s.append("<tr><td><span style=\"color:").append(CauseChart.colour(causes.tags(), i)).append("\">&#9632;</span> ")
                .append(Svg.escape(causes.tags().get(i))).append("</td><td>").append(causes.stalls(i)).append("</td><td>")
                .append(Values.value(causes.nanos(i), ratio)).append("</td><td>").append(Values.share(causes.nanos(i), total))
                .append("</td><td>").append(Values.value(causes.longest(i), ratio)).append("</td></tr>\n");
        }
        s.append("</table>\n<p>From the logs' tagged lines: each interval's longest stall of a cause, summed (a lower bound).");
        if (!causes.controlLogs().isEmpty()) {
            s.append(" Control JVM: ").append(causes.controlStalled()).append(" of ").append(causes.controlIntervals())
                .append(" intervals stalled, max sum ").append(Values.value(causes.controlStallNanos(), ratio)).append(' ')
                .append(Values.unit(ratio)).append("; a stall both JVMs have lies outside the JVM.");
        }
        if (causes.hasAllocationStallLines()) {
            s.append(' ').append(Svg.escape(Values.allocationStalls(causes, ratio))).append('.');
        }
        s.append("</p>\n");
    }

    private static String title(final Replay.Result result) {
        return result.logs() == 1 ? result.merged().name() : result.logs() + " logs merged";
    }
}
