package io.mech.it;

import io.mech.testing.JsonReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows and lines of mech's JSON report, read with a JSON reader: a row is a flat object, and
 * its values come back as text, numbers as written.
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
        return texts(list(json, section, "rows"));
    }

    /**
     * @param json the whole report
     * @param name an array of objects at the report's top, such as {@code hiccups} or {@code causes}
     * @return its objects, empty when the report has no such array
     */
    public static List<Map<String, String>> array(final String json, final String name) {
        final List<?> objects = (List<?>) JsonReader.object(json).get(name);
        return texts(objects == null ? List.of() : objects);
    }

    /**
     * @param json  the whole report
     * @param field a figure of every cause's row, such as {@code stall_ms} or {@code longest_ms}
     * @return that figure by cause, in the report's order, of the causes whose row has it
     */
    public static Map<String, Double> byCause(final String json, final String field) {
        final Map<String, Double> causes = new LinkedHashMap<>();
        for (final Map<String, String> row : array(json, "causes")) {
            if (row.containsKey(field)) {
                causes.put(row.get("cause"), Double.parseDouble(row.get(field)));
            }
        }
        return causes;
    }

    /**
     * @param json the whole report
     * @param path the names leading to a number through nested objects, such as {@code unmetered}, {@code gc_ms}
     * @return the number as written
     * @throws AssertionError when the report has no number there
     */
    public static BigDecimal number(final String json, final String... path) {
        Object value = JsonReader.object(json);
        for (final String name : path) {
            value = value instanceof Map ? ((Map<?, ?>) value).get(name) : null;
        }
        if (!(value instanceof BigDecimal)) {
            throw new AssertionError("no number at " + String.join(".", path) + ": " + json);
        }
        return (BigDecimal) value;
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

    /**
     * @param json the whole report
     * @return its notes, in order
     */
    public static List<String> notes(final String json) {
        final List<String> notes = new ArrayList<>();
        for (final Object note : (List<?>) JsonReader.object(json).get("notes")) {
            notes.add((String) note);
        }
        return notes;
    }

    private static List<Map<String, String>> texts(final List<?> objects) {
        final List<Map<String, String>> rows = new ArrayList<>();
        for (final Object row : objects) {
            final Map<String, String> fields = new LinkedHashMap<>();
            for (final Map.Entry<?, ?> field : ((Map<?, ?>) row).entrySet()) {
                fields.put((String) field.getKey(), String.valueOf(field.getValue()));
            }
            rows.add(fields);
        }
        return rows;
    }

    private static List<?> list(final String json, final String section, final String name) {
        final Map<?, ?> sections = (Map<?, ?>) JsonReader.object(json).get("sections");
        final Map<?, ?> found = sections == null ? null : (Map<?, ?>) sections.get(section);
        return found == null ? List.of() : (List<?>) found.get(name);
    }
}
