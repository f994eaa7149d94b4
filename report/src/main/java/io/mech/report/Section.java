package io.mech.report;

import java.util.List;
import java.util.Objects;

/**
 * One probe's part of a report: lines for a person and rows for tools, under one name.
 *
 * @param name  the section's name, a lower-case word such as {@code locks}; its JSON key
 * @param lines findings for a person, worst first, without line breaks
 * @param rows  the same findings as typed rows
 */
public record Section(String name, List<String> lines, List<? extends ReportRow> rows) {

    /** Validates and copies. */
    public Section {
        Objects.requireNonNull(name, "name");
        lines = List.copyOf(lines);
        rows = List.copyOf(rows);
    }
}
