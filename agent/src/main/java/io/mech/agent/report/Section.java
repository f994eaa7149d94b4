package io.mech.agent.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One probe's part of a report: lines for a person and rows for tools, under one name.
 *
 * @param name  the section's name, a lower-case word such as {@code locks}; its JSON key
 * @param lines findings for a person, worst first, without line breaks
 * @param rows  the same findings as flat records; values are strings, numbers or booleans
 */
public record Section(String name, List<String> lines, List<Map<String, Object>> rows) {

    /** Validates and copies, keeping each row's key order. */
    public Section {
        Objects.requireNonNull(name, "name");
        lines = List.copyOf(lines);
        final List<Map<String, Object>> copies = new ArrayList<>(rows.size());
        for (final Map<String, Object> row : rows) {
            for (final Object value : row.values()) {
                if (!(value instanceof String || value instanceof Number || value instanceof Boolean)) {
                    throw new IllegalArgumentException("section " + name + ": row value " + value + " is not a string, number or boolean");
                }
            }
            copies.add(Collections.unmodifiableMap(new LinkedHashMap<>(row)));
        }
        rows = List.copyOf(copies);
    }
}
