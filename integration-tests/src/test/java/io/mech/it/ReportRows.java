package io.mech.it;

import io.mech.testing.JsonReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows and lines of one section of mech's JSON report, read with a JSON reader: a row is a
 * flat object, and its values come back as text, numbers as written.
 */
public final class ReportRows {

    private ReportRows() {
    }

    /**
     * @param json    the whole report
     * @param section the section's name
     * @return its rows, empty when the section is missing or has none
     */
    public static List<Map<String, String>> of(final String json, final String section) {
        final List<Map<String, String>> rows = new ArrayList<>();
        for (final Object row : list(json, section, "rows")) {
            final Map<String, String> fields = new LinkedHashMap<>();
            for (final Map.Entry<?, ?> field : ((Map<?, ?>) row).entrySet()) {
                fields.put((String) field.getKey(), String.valueOf(field.getValue()));
            }
            rows.add(fields);
        }
        return rows;
    }

    /**
     * @param json    the whole report
     * @param section the section's name
     * @return its lines as the text report shows them, empty when the section is missing
     */
    public static List<String> lines(final String json, final String section) {
        final List<String> lines = new ArrayList<>();
        for (final Object line : list(json, section, "lines")) {
            lines.add((String) line);
        }
        return lines;
    }

    private static List<?> list(final String json, final String section, final String name) {
        final Map<?, ?> sections = (Map<?, ?>) JsonReader.object(json).get("sections");
        final Map<?, ?> found = sections == null ? null : (Map<?, ?>) sections.get(section);
        return found == null ? List.of() : (List<?>) found.get(name);
    }
}
