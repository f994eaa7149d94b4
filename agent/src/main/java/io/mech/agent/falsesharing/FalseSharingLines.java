package io.mech.agent.falsesharing;

import io.mech.probes.falsesharing.FalseSharingSnapshot;
import io.mech.probes.falsesharing.Verdict;
import io.mech.report.Columns;
import java.util.ArrayList;
import java.util.List;

/** A false-sharing window's findings as lines for a person: the defects, worst first, then the prefetch-pair notes. */
final class FalseSharingLines {

    private FalseSharingLines() {
    }

    /**
     * @param window a window's snapshot
     * @param rows   at most this many verdicts
     * @return lines for a person
     */
    static List<String> of(final FalseSharingSnapshot window, final int rows) {
        final List<String> lines = new ArrayList<>();
        switch (window.state()) {
            case WAITING:
                lines.add("false sharing: the window has not started yet");
                return lines;
            case MEASURING:
                lines.add("false sharing: measuring (" + window.woven() + " classes woven, " + window.fields() + " fields counted)");
                return lines;
            default:
                break;
        }
        lines.add("false sharing: " + Columns.fixed(window.seconds(), 1) + " s window, " + window.woven() + " classes woven, "
            + window.fields() + " fields counted; layout: " + window.sameLineCandidates() + " field pairs may share a line, "
            + window.adjacentLineCandidates() + " sit on adjacent lines" + (window.endedMillis() == 0 ? "" : "; ended " + window.ended()));
        final List<Verdict> defects = window.verdicts().stream().filter(v -> v.kind() != Verdict.Kind.ADJACENT_LINE).toList();
        final List<Verdict> notes = window.verdicts().stream().filter(v -> v.kind() == Verdict.Kind.ADJACENT_LINE).toList();
        if (defects.isEmpty()) {
            // a clean bill only for what was counted: what the weaving did not see may still share lines
            lines.add("  among the " + window.fields() + " fields and " + window.arraySlots() + " array slots counted, no line was written by one "
                + "thread while another used it");
        }
        if (!window.notCounted().isEmpty()) {
            lines.add("  not counted: " + String.join("; ", window.notCounted()));
        }
        int shown = rows(defects, rows, "  ", lines);
        if (!notes.isEmpty() && shown < rows) {
            lines.add("  prefetch-pair notes, not defects (neighbouring lines of a 128-byte pair, scored at 1/64 of one line):");
            rows(notes, rows - shown, "    ", lines);
        }
        return lines;
    }

    /** Adds at most {@code rows} verdicts, then how many more there are; returns how many lines it added. */
    private static int rows(final List<Verdict> verdicts, final int rows, final String indent, final List<String> lines) {
        int shown = 0;
        for (final Verdict v : verdicts) {
            if (shown == rows) {
                lines.add(indent + "... " + (verdicts.size() - rows) + " more");
                break;
            }
            shown++;
            final StringBuilder line = new StringBuilder(indent).append(v.kind().label()).append(": ").append(v.className());
            for (int i = 0; i < v.fields().size(); i++) {
                final String field = v.fields().get(i);
                final String dot = field.startsWith("[") ? "" : ".";
                line.append(i == 0 ? dot : " and " + dot).append(field).append(" (offset ").append(v.offsets().get(i)).append(')');
            }
            line.append(", threads ").append(String.join(", ", v.threads())).append(", rates ").append(rates(v.rates()))
                .append("/s, one line with probability ").append(Columns.fixed(v.probability(), 2)).append(", score ").append(rate(v.score()))
                .append("/s; fix: ").append(v.fix());
            lines.add(line.toString());
        }
        return shown;
    }

    private static String rates(final List<Double> rates) {
        final List<String> out = new ArrayList<>();
        for (final double r : rates) {
            out.add(rate(r));
        }
        return String.join(" and ", out);
    }

    private static String rate(final double perSecond) {
        if (perSecond >= 1e6) {
            return Columns.fixed(perSecond / 1e6, 1) + "M";
        }
        if (perSecond >= 1e3) {
            return Columns.fixed(perSecond / 1e3, 1) + "k";
        }
        return Columns.fixed(perSecond, 0);
    }
}
