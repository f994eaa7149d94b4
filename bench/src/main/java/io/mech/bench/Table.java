package io.mech.bench;

import java.util.List;
import java.util.Locale;

/** Renders rows as a Markdown table that says plainly where a target is missed. */
final class Table {

    private Table() {
    }

    static String render(final List<Row> rows) {
        final StringBuilder out = new StringBuilder();
        out.append("| figure | configuration | median | min - max | runs | unit | target | |\n");
        out.append("|---|---|---:|---:|---:|---|---|---|\n");
        for (final Row row : rows) {
            final Stats s = row.stats();
            out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s - %s | %d | %s | %s | %s |%n",
                row.figure(), row.config(), number(s.median()), number(s.min()), number(s.max()), s.n(), row.unit(),
                row.target(), row.target().isEmpty() ? "" : row.met() ? "met" : "**MISSED**"));
        }
        return out.toString();
    }

    static String number(final double value) {
        final double magnitude = Math.abs(value);
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (magnitude >= 1) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.4f", value);
    }
}
