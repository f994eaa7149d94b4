package io.mech.it;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rows of one section of mech's JSON report. Rows are flat objects of strings, numbers and
 * booleans, which is all this reader understands; values come back as their JSON text, strings
 * unquoted and unescaped.
 */
public final class ReportRows {

    private static final Pattern ROW = Pattern.compile("\\{([^{}]*)\\}");
    private static final Pattern LINE = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern FIELD = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\":(\"((?:[^\"\\\\]|\\\\.)*)\"|[^,\"]+)");

    private ReportRows() {
    }

    /**
     * @param json    the whole report
     * @param section the section's name
     * @return its rows, empty when the section is missing or has none
     */
    public static List<Map<String, String>> of(final String json, final String section) {
        final String key = "\"" + section + "\":{\"lines\":[";
        final int at = json.indexOf(key);
        final List<Map<String, String>> rows = new ArrayList<>();
        if (at < 0) {
            return rows;
        }
        final int start = json.indexOf("\"rows\":[", at);
        final int end = json.indexOf("]}", start);
        final Matcher row = ROW.matcher(json.substring(start, end));
        while (row.find()) {
            final Map<String, String> fields = new LinkedHashMap<>();
            final Matcher field = FIELD.matcher(row.group(1));
            while (field.find()) {
                fields.put(unescape(field.group(1)), field.group(3) != null ? unescape(field.group(3)) : field.group(2));
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
        final String key = "\"" + section + "\":{\"lines\":[";
        final int at = json.indexOf(key);
        final List<String> lines = new ArrayList<>();
        if (at < 0) {
            return lines;
        }
        final int start = at + key.length();
        final Matcher line = LINE.matcher(json.substring(start, json.indexOf("],\"rows\":[", start)));
        while (line.find()) {
            lines.add(unescape(line.group(1)));
        }
        return lines;
    }

    private static String unescape(final String text) {
        return text.replace("\\\"", "\"").replace("\\\\", "\\");
    }
}
