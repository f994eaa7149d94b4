package io.mech.agent;

import io.mech.exporter.MetricFamilies;
import io.mech.exporter.ProfilerFamilies;
import io.mech.probes.profiler.CaptureFiles;
import io.mech.probes.profiler.ProfileEvent;
import io.mech.probes.profiler.Profiler;
import io.mech.probes.profiler.ProfilerSettings;
import io.mech.probes.profiler.TriggerSource;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Captures on trigger as a {@link Part}: the report lists each capture and why it was taken. */
final class ProfilerPart implements Part {

    private final Profiler profiler;

    private ProfilerPart(final Profiler profiler) {
        this.profiler = profiler;
    }

    /**
     * Starts the profiler with the triggers of the parts that run.
     *
     * @return the part, or null when the options are unusable or no trigger can fire (it warned)
     */
    static ProfilerPart start(final Options options, final List<TriggerSource> triggers) {
        if (triggers.isEmpty()) {
            Console.warn("option 'profiler' needs hiccup, probes.locks or probes.queues on to trigger captures; no profiler");
            return null;
        }
        final ProfilerSettings settings;
        try {
            final String extract = options.text(Option.PROFILER_EXTRACT_PATH);
            settings = new ProfilerSettings(Path.of(options.text(Option.PROFILER_DIR)).toAbsolutePath(),
                Path.of(extract.isEmpty() ? System.getProperty("java.io.tmpdir") : extract).toAbsolutePath(),
                ProfileEvent.parse(options.text(Option.PROFILER_EVENT)), options.text(Option.PROFILER_MODE).trim().equals("continuous"),
                options.nanos(Option.PROFILER_SECONDS) / 1_000_000,
                options.nanos(Option.PROFILER_COOLDOWN), (int) Math.min(Integer.MAX_VALUE, options.count(Option.PROFILER_MAX_FILES)));
        } catch (final IllegalArgumentException e) {
            Console.warn(e.getMessage() + "; no profiler");
            return null;
        }
        return new ProfilerPart(Profiler.start(settings, triggers, Console.WARNINGS));
    }

    @Override
    public String name() {
        return "profiler";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new ProfilerFamilies(profiler));
    }

    @Override
    public Section section() {
        final List<String> lines = new ArrayList<>();
        final List<ReportRow> rows = new ArrayList<>();
        for (final Profiler.Taken capture : profiler.taken()) {
            lines.add(capture.when() + " " + capture.trigger() + " (" + capture.detail() + "): " + capture.html()
                + " and " + CaptureFiles.jfrOf(capture.html()).getFileName()
                + (capture.cutShort() ? String.format(Locale.ROOT, ", cut short at exit after %.1f s", capture.millis() / 1e3) : ""));
            rows.add(new TakenRow(capture));
        }
        for (final Profiler.Unfinished capture : profiler.unfinished()) {
            final List<String> removed = new ArrayList<>();
            for (final Path file : capture.removed()) {
                removed.add(file.getFileName().toString());
            }
            lines.add(capture.when() + " " + capture.trigger() + " (" + capture.detail() + "): cut short at exit, " + capture.reason()
                + (removed.isEmpty() ? "; nothing on disk" : "; its partial files were removed: " + String.join(", ", removed)));
            rows.add(new UnfinishedRow(capture, String.join(" ", removed)));
        }
        if (lines.isEmpty() && !profiler.failed()) {
            lines.add("no capture: no trigger reached its threshold");
        }
        if (profiler.triggersInCooldown() > 0) {
            lines.add(profiler.triggersInCooldown() + " triggers came inside the cooldown and took no capture");
        }
        if (profiler.failed()) {
            lines.add("the profiler turned itself off (see the warning)");
        }
        return new Section("profiler", lines, rows);
    }

    /** A capture written, whole or cut short at exit. */
    record TakenRow(Profiler.Taken capture) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("time", capture.when().toString()).field("trigger", capture.trigger()).field("detail", capture.detail())
                .field("html", capture.html().toString()).field("jfr", CaptureFiles.jfrOf(capture.html()).toString())
                .field("millis", capture.millis()).field("cut_short", capture.cutShort());
        }
    }

    /** A capture the exit cut short before it could be written, and the partial files removed (names, space-separated). */
    record UnfinishedRow(Profiler.Unfinished capture, String removed) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("time", capture.when().toString()).field("trigger", capture.trigger()).field("detail", capture.detail())
                .field("cut_short", true).field("unfinished", capture.reason()).field("removed", removed);
        }
    }

    /**
     * Stops the profiler before the final report, so that the report tells what became of a
     * capture the exit cut short: written as far as it sampled, or unfinished by the deadline and
     * its partial files removed (see {@link Profiler#close(long)}).
     */
    @Override
    public void settle(final long deadline) {
        profiler.close(deadline);
    }
}
