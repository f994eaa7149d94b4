package io.mech.report;

import java.util.List;
import java.util.Map;

/** Renders a {@link Report} as a short table for a person reading a terminal. */
public final class TextReport {

    /** Culprits named at most on a cause's line. */
    private static final int SHOWN_CULPRITS = 3;
    /** The share below which a culprit after the first is left to the JSON report. */
    private static final double SHOWN_SHARE = 0.05;

    private static final String NEW_LINE = System.lineSeparator();

    /** The cause no evidence names, in every text report. */
    private static final String UNKNOWN = "unknown";

    private TextReport() {
    }

    /** The report as lines of text, ending with a line break. */
    public static String render(final Report report) {
        final StringBuilder out = new StringBuilder();
        out.append("mech report: pid ").append(report.pid()).append(", mech ran ").append(Columns.fixed(report.runMillis() / 1e3, 1))
            .append(" s").append(NEW_LINE);
        if (!report.hiccups().isEmpty()) {
            out.append("  hiccups (ms)");
            for (final String column : new String[] {"p50", "p90", "p99", "p99.9", "max"}) {
                Columns.right(out.append(' '), column, 9);
            }
            Columns.right(Columns.right(out.append(' '), "samples", 11).append(' '), "intervals", 9).append(NEW_LINE);
            for (final HiccupSummary h : report.hiccups()) {
                Columns.left(out.append("  "), h.jvm(), 12);
                for (final long nanos : new long[] {h.p50(), h.p90(), h.p99(), h.p999(), h.max()}) {
                    Columns.right(out.append(' '), Columns.fixed(ms(nanos), 3), 9);
                }
                Columns.right(out.append(' '), Long.toString(h.samples()), 11);
                Columns.right(out.append(' '), Long.toString(h.intervals()), 9).append(NEW_LINE);
            }
            for (final HiccupSummary h : report.hiccups()) {
                if (h.stalls() >= 0) {
                    final boolean causes = h.jvm().equals("host") && !report.causes().isEmpty();
                    out.append("  ").append(h.jvm()).append(" stalled ").append(Columns.fixed(ms(h.stallTime()), 3)).append(" ms in ")
                        .append(h.stalls()).append(h.stalls() == 1 ? " stall" : " stalls").append(causes ? ", by cause:" : "").append(NEW_LINE);
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
                    out.append(NEW_LINE);
                } else if (!h.logProblem().isEmpty()) {
                    out.append("  ").append(h.jvm()).append(" log not written (").append(h.logProblem()).append(')')
                        .append(NEW_LINE);
                }
            }
        }
        for (final Section section : report.sections()) {
            if (!section.lines().isEmpty()) {
                out.append("  ").append(section.name()).append(':').append(NEW_LINE);
                for (final String line : section.lines()) {
                    out.append("    ").append(line).append(NEW_LINE);
                }
            }
        }
        for (final String note : report.notes()) {
            out.append("  ").append(note).append(NEW_LINE);
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
            Columns.left(out.append("    "), c.cause(), 10).append(' ');
            Columns.right(out, Columns.fixed(ms(c.nanos()), 3), 11).append(" ms ");
            Columns.left(Columns.right(out, Long.toString(c.stalls()), 5).append(' '), c.stalls() == 1 ? "stall" : "stalls", 6);
            if (c.stalls() > 0) {
                Columns.right(out.append("  longest "), Columns.fixed(ms(c.longest()), 3), 10).append(" ms  ");
                String separator = "";
                for (final Map.Entry<String, Long> detail : c.details().entrySet()) {
                    out.append(separator).append(detail.getKey()).append(" x").append(detail.getValue());
                    separator = ", ";
                }
                culprits(c, out);
            }
            out.append(NEW_LINE);
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
        out.append("  host stopped ").append(Columns.fixed(ms(before.stoppedNanos()), 3)).append(" ms before the meter began");
        if (before.vmMillis() >= 0) {
            out.append(", ").append(before.vmMillis()).append(" ms into the JVM");
        }
        out.append(": gc ").append(Columns.fixed(ms(before.gcNanos()), 3)).append(" ms in ").append(before.collections())
            .append(before.collections() == 1 ? " collection" : " collections")
            .append(", safepoint ").append(Columns.fixed(ms(before.safepointNanos()), 3))
            .append(" ms, ttsp ").append(Columns.fixed(ms(before.ttspNanos()), 3)).append(" ms (").append(before.safepoints())
            .append(before.safepoints() == 1 ? " safepoint" : " safepoints").append("; HotSpot's counters, in no histogram)").append(NEW_LINE);
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
                .append(' ').append(Columns.fixed(culprit.share() * 100, 0)).append('%');
            if (i == 0) {
                out.append(" of ").append(c.culpritSamples()).append(" samples");
            }
        }
    }

    private static double ms(final long nanos) {
        return nanos / 1e6;
    }
}
