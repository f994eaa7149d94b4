package io.mech.agent.report;

import java.util.Locale;

/** Renders a {@link Report} as a short table for a person reading a terminal. */
public final class TextReport {

    private TextReport() {
    }

    /** The report as lines of text, ending with a line break. */
    public static String render(final Report report) {
        final StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "mech report: pid %d, mech ran %.1f s%n", report.pid(), report.runMillis() / 1e3));
        if (!report.hiccups().isEmpty()) {
            out.append(String.format(Locale.ROOT, "  hiccups (ms) %9s %9s %9s %9s %9s %11s %9s%n",
                "p50", "p90", "p99", "p99.9", "max", "samples", "intervals"));
            for (final HiccupSummary h : report.hiccups()) {
                out.append(String.format(Locale.ROOT, "  %-12s %9.3f %9.3f %9.3f %9.3f %9.3f %11d %9d%n",
                    h.jvm(), ms(h.p50()), ms(h.p90()), ms(h.p99()), ms(h.p999()), ms(h.max()), h.samples(), h.intervals()));
            }
            for (final HiccupSummary h : report.hiccups()) {
                if (h.stalls() >= 0) {
                    out.append(String.format(Locale.ROOT, "  %s stalled %.3f ms in %d stalls%n", h.jvm(), ms(h.stallTime()), h.stalls()));
                }
            }
            for (final HiccupSummary h : report.hiccups()) {
                if (!h.log().isEmpty()) {
                    out.append("  ").append(h.jvm()).append(" log: ").append(h.log()).append(System.lineSeparator());
                }
            }
        }
        for (final String note : report.notes()) {
            out.append("  ").append(note).append(System.lineSeparator());
        }
        return out.toString();
    }

    private static double ms(final long nanos) {
        return nanos / 1e6;
    }
}
