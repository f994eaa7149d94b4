package io.mech.probes.falsesharing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the probe knows now: before, during or after its window.
 *
 * @param state      where the window stands
 * @param seconds    the window's measured length, 0 before it ended
 * @param woven      classes woven: for the window, or since start-up when woven as they load
 * @param fields     fields counted
 * @param candidates layout candidates among the included classes: pairs of fields some code uses,
 *                   127 bytes apart or closer
 * @param verdicts   the window's verdicts, worst first within each kind
 * @param endedMillis when the window ended, in epoch milliseconds; 0 before
 */
public record FalseSharingSnapshot(State state, double seconds, int woven, int fields, List<LayoutCandidate> candidates,
                                   List<Verdict> verdicts, long endedMillis) {

    /** A snapshot with no end time: before a window ended. */
    public FalseSharingSnapshot(final State state, final double seconds, final int woven, final int fields,
                                final List<LayoutCandidate> candidates, final List<Verdict> verdicts) {
        this(state, seconds, woven, fields, candidates, verdicts, 0);
    }

    /** Where the window stands. */
    public enum State {
        /** Waiting for probes.falsesharing.delay to pass. */
        WAITING,
        /** Counting is woven in. */
        MEASURING,
        /** The window is over and the counting removed. */
        DONE
    }

    /** Copies. */
    public FalseSharingSnapshot {
        candidates = List.copyOf(candidates);
        verdicts = List.copyOf(verdicts);
    }

    /** @return the candidates on one line in some placement */
    public long sameLineCandidates() {
        return candidates.stream().filter(c -> !c.adjacent()).count();
    }

    /** @return the candidates on neighbouring lines */
    public long adjacentLineCandidates() {
        return candidates.stream().filter(LayoutCandidate::adjacent).count();
    }

    /**
     * @param rows at most this many verdicts
     * @return lines for a person
     */
    public List<String> render(final int rows) {
        final List<String> lines = new ArrayList<>();
        switch (state) {
            case WAITING:
                lines.add("false sharing: the window has not started yet");
                return lines;
            case MEASURING:
                lines.add("false sharing: measuring (" + woven + " classes woven, " + fields + " fields counted)");
                return lines;
            default:
                break;
        }
        lines.add(String.format(Locale.ROOT, "false sharing: %.1f s window, %d classes woven, %d fields counted; layout: "
            + "%d field pairs may share a line, %d sit on adjacent lines%s", seconds, woven, fields, sameLineCandidates(),
            adjacentLineCandidates(), endedMillis == 0 ? "" : "; ended " + ended()));
        final List<Verdict> defects = verdicts.stream().filter(v -> v.kind() != Verdict.Kind.ADJACENT_LINE).toList();
        final List<Verdict> notes = verdicts.stream().filter(v -> v.kind() == Verdict.Kind.ADJACENT_LINE).toList();
        if (defects.isEmpty()) {
            lines.add("  no line was written by one thread while another used it");
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
            line.append(String.format(Locale.ROOT, ", threads %s, rates %s/s, one line with probability %.2f, score %s/s; fix: %s",
                String.join(", ", v.threads()), rates(v.rates()), v.probability(), rate(v.score()), v.fix()));
            lines.add(line.toString());
        }
        return shown;
    }

    /** @return when the window ended, e.g. {@code 2026-11-24T09:45:12Z}, or empty before */
    public String ended() {
        return endedMillis == 0 ? "" : java.time.Instant.ofEpochMilli(endedMillis).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
            .toString();
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
            return String.format(Locale.ROOT, "%.1fM", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format(Locale.ROOT, "%.1fk", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", perSecond);
    }
}
