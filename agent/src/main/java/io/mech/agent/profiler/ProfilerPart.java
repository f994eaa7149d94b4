package io.mech.agent.profiler;

import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.Offers;
import io.mech.agent.runtime.Part;
import io.mech.agent.runtime.PartContext;
import io.mech.agent.runtime.PartSpec;
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

/**
 * Captures on trigger as a {@link Part}: the report lists each capture and why it was taken. When
 * stalls are attributed to causes, the profiler also samples the methods that keep safepoints
 * waiting, which it offers the causes part for the report's ttsp row ({@link Offers#ttspCulprits}).
 */
public final class ProfilerPart implements Part {

    /** Starts last, subscribing to the triggers of the recorder and of every part that runs. */
    public static final class Spec implements PartSpec.Starter {
        public static final Option<Boolean> ON = Option.onOff("profiler", "off",
            "async-profiler captures on trigger: a long hiccup, lock blocking, a queue back-pressure alert");
        public static final Option<ProfilerMode> MODE = Option.choice("profiler.mode", ProfilerMode.class, "trigger",
            "trigger: a capture starts sampling at its trigger; continuous: a low-rate wall-clock and lock profile runs all the time "
                + "and a capture is the window around its trigger (profiler.event is then ignored)");
        public static final Option<String> DIR = Option.text("profiler.dir", "mech-captures",
            "where captures go (HTML flame graph, JFR file and JSON metadata); relative to the working directory");
        public static final Option<String> EXTRACT_PATH = Option.text("profiler.extract-path", "",
            "where async-profiler's native library is extracted; empty: the temporary directory (give another if it is mounted noexec)");
        public static final Option<ProfileEvent> EVENT = Option.choice("profiler.event", ProfileEvent.class, "wall", "what a capture samples");
        public static final Option<Long> SECONDS = Option.duration("profiler.seconds", "5s", Option.Bounds.between("100ms", "10m"),
            "how long a capture samples; in continuous mode, the length of one segment of the running profile");
        public static final Option<Long> COOLDOWN = Option.duration("profiler.cooldown", "60s", Option.Bounds.from("1s"),
            "at most one capture starts per cooldown");
        public static final Option<Long> MAX_FILES = Option.count("profiler.max-files", "20",
            "captures kept in profiler.dir; the oldest are removed first");

        public static final PartSpec PART = new PartSpec("profiler",
            List.of(ON, MODE, DIR, EXTRACT_PATH, EVENT, SECONDS, COOLDOWN, MAX_FILES),
            PartSpec.Stage.LAST, false, null, new Spec());

        private Spec() {
        }

        /** Starts the part; the spec itself is the starter, not a lambda, for premain's sake (see {@link PartSpec.Starter}). */
        @Override
        public Part start(final PartContext context) {
            final ProfilerPart part = ProfilerPart.of(context.options(), context.triggers().get(),
                context.offers().ttspCulpritsWanted());
            if (part != null) {
                context.offers().ttspCulprits(part.profiler::ttspCulprits);
                // last: a start a full heap cut short is made again, and must leave no profiler polling the triggers
                part.profiler.start();
            }
            return part;
        }
    }

    private final Profiler profiler;

    private ProfilerPart(final Profiler profiler) {
        this.profiler = profiler;
    }

    /**
     * The part, its profiler not started yet, with the triggers of the parts that run.
     *
     * @return the part, or null when the options are unusable or no trigger can fire (it warned)
     */
    private static ProfilerPart of(final Options options, final List<TriggerSource> triggers, final boolean ttsp) {
        if (triggers.isEmpty()) {
            Console.warn("option 'profiler' needs hiccup, probes.locks or probes.queues on to trigger captures; no profiler");
            return null;
        }
        final ProfilerSettings settings;
        try {
            final String extract = options.get(Spec.EXTRACT_PATH);
            settings = new ProfilerSettings(Path.of(options.get(Spec.DIR)).toAbsolutePath(),
                Path.of(extract.isEmpty() ? System.getProperty("java.io.tmpdir") : extract).toAbsolutePath(),
                options.get(Spec.EVENT), options.get(Spec.MODE) == ProfilerMode.CONTINUOUS,
                options.get(Spec.SECONDS) / 1_000_000,
                options.get(Spec.COOLDOWN), (int) Math.min(Integer.MAX_VALUE, options.get(Spec.MAX_FILES)),
                ttsp);
        } catch (final IllegalArgumentException e) {
            Console.warn(e.getMessage() + "; no profiler");
            return null;
        }
        return new ProfilerPart(Profiler.of(settings, triggers, Console.WARNINGS));
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
