package io.mech.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders a {@link Report} as a short table for a person reading a terminal. */
public final class TextReport {

    /** Culprits named at most on a cause's line. */
    private static final int SHOWN_CULPRITS = 3;
    /** The share below which a culprit after the first is left to the JSON report. */
    private static final double SHOWN_SHARE = 0.05;

    /** The cause no evidence names, in every text report. */
    private static final String UNKNOWN = "unknown";

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
                    final boolean causes = h.jvm().equals("host") && !report.causes().isEmpty();
                    out.append(String.format(Locale.ROOT, "  %s stalled %.3f ms in %d %s%s%n", h.jvm(), ms(h.stallTime()), h.stalls(),
                        h.stalls() == 1 ? "stall" : "stalls", causes ? ", by cause:" : ""));
                    out.append(causes ? causes(report.causes()) : "");
                    if (h.jvm().equals("host")) {
                        unmetered(report.unmetered(), out);
                    }
                }
            }
            for (final HiccupSummary h : report.hiccups()) {
                if (!h.log().isEmpty()) {
                    out.append("  ").append(h.jvm()).append(" log: ").append(h.log());
                    if (!h.logProblem().isEmpty()) {
                        out.append(", incomplete (").append(h.logProblem()).append(')');
                    }
                    out.append(System.lineSeparator());
                } else if (!h.logProblem().isEmpty()) {
                    out.append("  ").append(h.jvm()).append(" log not written (").append(h.logProblem()).append(')')
                        .append(System.lineSeparator());
                }
            }
        }
        for (final Section section : report.sections()) {
            if (!section.lines().isEmpty()) {
                out.append("  ").append(section.name()).append(':').append(System.lineSeparator());
                for (final String line : section.lines()) {
                    out.append("    ").append(line).append(System.lineSeparator());
                }
            }
        }
        for (final String note : report.notes()) {
            out.append("  ").append(note).append(System.lineSeparator());
        }
        return out.toString();
    }

    /**
     * The cause table under the host's stall line, one row per cause in a fixed shape, then its
     * details:
     * <pre>
     *     gc           250.000 ms     3 stalls  longest  200.000 ms  G1New (G1 Evacuation Pause) x2, ...
     *     unknown        0.000 ms     0 stalls
     * </pre>
     * A cause without stalls is left to the JSON report, but for {@code unknown}, said even when
     * none is, so that a reader knows every stall has a cause.
     */
    private static String causes(final List<CauseSummary> causes) {
        final StringBuilder out = new StringBuilder();
        for (final CauseSummary c : causes) {
            if (c.stalls() == 0 && c.nanos() == 0 && !c.cause().equals(UNKNOWN)) {
                continue;
            }
            out.append(String.format(Locale.ROOT, "    %-10s %11.3f ms %5d %-6s", c.cause(), ms(c.nanos()), c.stalls(),
                c.stalls() == 1 ? "stall" : "stalls"));
            if (c.stalls() > 0) {
                out.append(String.format(Locale.ROOT, "  longest %10.3f ms  ", ms(c.longest())));
                String separator = "";
                for (final Map.Entry<String, Long> detail : c.details().entrySet()) {
                    out.append(separator).append(detail.getKey()).append(" x").append(detail.getValue());
                    separator = ", ";
                }
                culprits(c, out);
            }
            out.append(System.lineSeparator());
        }
        return out.toString();
    }

    /**
     * "  host stopped 192.800 ms before the meter began, 412 ms into the JVM: gc 190.300 ms in 3
     * collections, ...": only when it stopped a millisecond or more, which no histogram can show.
     */
    private static void unmetered(final Unmetered before, final StringBuilder out) {
        if (before.stoppedNanos() < 1_000_000) {
            return;
        }
        out.append(String.format(Locale.ROOT, "  host stopped %.3f ms before the meter began", ms(before.stoppedNanos())));
        if (before.vmMillis() >= 0) {
            out.append(String.format(Locale.ROOT, ", %d ms into the JVM", before.vmMillis()));
        }
        out.append(String.format(Locale.ROOT, ": gc %.3f ms in %d %s, safepoint %.3f ms, ttsp %.3f ms (%d %s; HotSpot's counters, "
            + "in no histogram)%n", ms(before.gcNanos()), before.collections(), before.collections() == 1 ? "collection" : "collections",
            ms(before.safepointNanos()), ms(before.ttspNanos()), before.safepoints(), before.safepoints() == 1 ? "safepoint" : "safepoints"));
    }

    /** "; culprit a.B.copy (in java.lang.System.arraycopy) 96% of 2018 samples" */
    private static void culprits(final CauseSummary c, final StringBuilder out) {
        if (!c.culpritNote().isEmpty()) {
            out.append("; culprit ").append(c.culpritNote());
        }
        for (int i = 0; i < Math.min(SHOWN_CULPRITS, c.culprits().size()); i++) {
            final CauseSummary.Culprit culprit = c.culprits().get(i);
            if (i > 0 && culprit.share() < SHOWN_SHARE) {
                break;
            }
            out.append(i == 0 ? "; culprit " : ", then ").append(culprit.method())
                .append(culprit.in().isEmpty() ? "" : " (in " + culprit.in() + ")")
                .append(String.format(Locale.ROOT, " %.0f%%", culprit.share() * 100));
            if (i == 0) {
                out.append(" of ").append(c.culpritSamples()).append(" samples");
            }
        }
    }

    private static double ms(final long nanos) {
        return nanos / 1e6;
    }
}
