package io.mech.report;

import java.util.Map;

/**
 * Renders a {@link Report} as one JSON object, for tests and tools. Durations are in
 * milliseconds with microsecond precision, under names that end in {@code _ms}.
 */
public final class JsonReport {

    private JsonReport() {
    }

    /** The report as a JSON document, ending with a line break. */
    public static String render(final Report report) {
        final Json json = new Json(1024).beginObject().field("pid", report.pid()).field("run_ms", report.runMillis())
            .beginArray("hiccups");
        for (final HiccupSummary h : report.hiccups()) {
            json.beginObject().field("jvm", h.jvm())
                .millis(millis(50.0), h.p50()).millis(millis(90.0), h.p90()).millis(millis(99.0), h.p99())
                .millis(millis(99.9), h.p999()).millis("max_ms", h.max())
                .field("samples", h.samples()).field("intervals", h.intervals()).field("stalls", h.stalls());
            if (h.stallTime() < 0) {
                json.field("stall_ms", -1);
            } else {
                json.millis("stall_ms", h.stallTime());
            }
            json.field("log", h.log()).field("log_problem", h.logProblem()).endObject();
        }
        json.endArray().beginArray("causes");
        for (final CauseSummary c : report.causes()) {
            json.beginObject().field("cause", c.cause()).millis("stall_ms", c.nanos()).field("stalls", c.stalls())
                .millis("longest_ms", c.longest()).beginObject("details");
            for (final Map.Entry<String, Long> detail : c.details().entrySet()) {
                json.field(detail.getKey(), detail.getValue());
            }
            json.endObject();
            culprits(c, json);
            json.endObject();
        }
        json.endArray();
        final Unmetered before = report.unmetered();
        if (before != Unmetered.NONE) {
            json.beginObject("unmetered").field("vm_ms", before.vmMillis()).field("safepoints", before.safepoints())
                .field("collections", before.collections()).millis("gc_ms", before.gcNanos())
                .millis("safepoint_ms", before.safepointNanos()).millis("ttsp_ms", before.ttspNanos()).endObject();
        }
        json.beginObject("sections");
        for (final Section section : report.sections()) {
            json.beginObject(section.name()).beginArray("lines");
            for (final String line : section.lines()) {
                json.value(line);
            }
            json.endArray().beginArray("rows");
            for (final ReportRow row : section.rows()) {
                json.beginObject();
                row.writeTo(json);
                json.endObject();
            }
            json.endArray().endObject();
        }
        json.endObject().beginArray("notes");
        for (final String note : report.notes()) {
            json.value(note);
        }
        return json.endArray().endObject() + "\n";
    }

    /**
     * {@code "culprits":[...],"culprit_samples":N} when the cause names culprits,
     * {@code "culprit_note":"..."} when it says why it names none; nothing for other causes.
     */
    private static void culprits(final CauseSummary c, final Json json) {
        if (!c.culprits().isEmpty()) {
            json.beginArray("culprits");
            for (final CauseSummary.Culprit culprit : c.culprits()) {
                json.beginObject().field("method", culprit.method()).field("in", culprit.in()).field("samples", culprit.samples())
                    .field("share", Math.round(culprit.share() * 1e4) / 1e4).endObject();
            }
            json.endArray().field("culprit_samples", c.culpritSamples());
        }
        if (!c.culpritNote().isEmpty()) {
            json.field("culprit_note", c.culpritNote());
        }
    }

    /** A percentile's key here: the shared one, in milliseconds. */
    private static String millis(final double percentile) {
        return Percentiles.key(percentile) + "_ms";
    }
}
