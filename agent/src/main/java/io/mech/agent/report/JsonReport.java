package io.mech.agent.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link Report} as one JSON object, for tests and tools. Durations are in
 * milliseconds with microsecond precision, under names that end in {@code _ms}.
 */
public final class JsonReport {

    private JsonReport() {
    }

    /** The report as a JSON document. */
    public static String render(final Report report) {
        final StringBuilder out = new StringBuilder(512);
        out.append("{\"pid\":").append(report.pid())
            .append(",\"run_ms\":").append(report.runMillis())
            .append(",\"hiccups\":[");
        final List<HiccupSummary> hiccups = report.hiccups();
        for (int i = 0; i < hiccups.size(); i++) {
            final HiccupSummary h = hiccups.get(i);
            out.append(i == 0 ? "" : ",")
                .append("{\"jvm\":").append(quote(h.jvm()))
                .append(",\"p50_ms\":").append(ms(h.p50()))
                .append(",\"p90_ms\":").append(ms(h.p90()))
                .append(",\"p99_ms\":").append(ms(h.p99()))
                .append(",\"p99_9_ms\":").append(ms(h.p999()))
                .append(",\"max_ms\":").append(ms(h.max()))
                .append(",\"samples\":").append(h.samples())
                .append(",\"intervals\":").append(h.intervals())
                .append(",\"stalls\":").append(h.stalls())
                .append(",\"stall_ms\":").append(h.stallTime() < 0 ? "-1" : ms(h.stallTime()))
                .append(",\"log\":").append(quote(h.log()))
                .append(",\"log_problem\":").append(quote(h.logProblem()))
                .append('}');
        }
        out.append("],\"causes\":[");
        for (int i = 0; i < report.causes().size(); i++) {
            final CauseSummary c = report.causes().get(i);
            out.append(i == 0 ? "" : ",")
                .append("{\"cause\":").append(quote(c.cause()))
                .append(",\"stall_ms\":").append(ms(c.nanos()))
                .append(",\"stalls\":").append(c.stalls())
                .append(",\"longest_ms\":").append(ms(c.longest()))
                .append(",\"details\":{");
            String separator = "";
            for (final Map.Entry<String, Long> detail : c.details().entrySet()) {
                out.append(separator).append(quote(detail.getKey())).append(':').append(detail.getValue());
                separator = ",";
            }
            out.append("}}");
        }
        out.append("],\"sections\":{");
        for (int i = 0; i < report.sections().size(); i++) {
            final Section section = report.sections().get(i);
            out.append(i == 0 ? "" : ",").append(quote(section.name())).append(":{\"lines\":[");
            for (int j = 0; j < section.lines().size(); j++) {
                out.append(j == 0 ? "" : ",").append(quote(section.lines().get(j)));
            }
            out.append("],\"rows\":[");
            for (int j = 0; j < section.rows().size(); j++) {
                out.append(j == 0 ? "{" : ",{");
                String separator = "";
                for (final Map.Entry<String, Object> field : section.rows().get(j).entrySet()) {
                    out.append(separator).append(quote(field.getKey())).append(':').append(value(field.getValue()));
                    separator = ",";
                }
                out.append('}');
            }
            out.append("]}");
        }
        out.append("},\"notes\":[");
        for (int i = 0; i < report.notes().size(); i++) {
            out.append(i == 0 ? "" : ",").append(quote(report.notes().get(i)));
        }
        return out.append("]}\n").toString();
    }

    private static String ms(final long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    private static String value(final Object value) {
        if (value instanceof Double || value instanceof Float) {
            final double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? String.format(Locale.ROOT, "%.6g", d) : "null";
        }
        return value instanceof String ? quote((String) value) : String.valueOf(value);
    }

    static String quote(final String text) {
        final StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
