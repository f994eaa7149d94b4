package io.mech.agent.falsesharing;

import io.mech.agent.options.IncludedPackages;
import io.mech.agent.options.Option;
import io.mech.agent.options.Options;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.Part;
import io.mech.agent.runtime.PartContext;
import io.mech.agent.runtime.PartSpec;
import io.mech.exporter.FalseSharingFamilies;
import io.mech.exporter.MetricFamilies;
import io.mech.exporter.jfr.FalseSharingEvents;
import io.mech.probes.falsesharing.FalseSharingProbe;
import io.mech.probes.falsesharing.FalseSharingSettings;
import io.mech.probes.falsesharing.FalseSharingSnapshot;
import io.mech.probes.falsesharing.Verdict;
import io.mech.report.Json;
import io.mech.report.ReportRow;
import io.mech.report.Section;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/** The false-sharing probe as a {@link Part}. */
public final class FalseSharingPart implements Part {

    /**
     * The system property in which mech publishes, in epoch milliseconds, when the false-sharing
     * window's verdicts came in ({@code jcmd <pid> VM.system_properties}).
     */
    static final String DONE_PROPERTY = "io.mech.falsesharing.done";

    /** Starts early, under -javaagent before main: loops the host starts in main and never leaves are only seen in code woven as it loads. */
    public static final class Spec implements PartSpec.Starter {
        public static final Option<Boolean> ON = Option.onOff("probes.falsesharing", "off",
            "the false-sharing probe: counts field and array-slot accesses in the included packages for one window "
                + "(under -javaagent woven as classes load, switched off outside the window; attached, woven for the window only)");
        public static final Option<String> INCLUDE = Option.text("probes.falsesharing.include", "",
            "packages (and their subpackages) the false-sharing probe weaves and judges, separated by ';'; empty: the main class's package");
        public static final Option<Long> DELAY = Option.duration("probes.falsesharing.delay", "5s",
            "from start-up to the false-sharing window");
        public static final Option<Long> WINDOW = Option.duration("probes.falsesharing.window", "10s",
            "how long the false-sharing counting stays switched on");
        public static final Option<Long> EVERY = Option.duration("probes.falsesharing.every", "0",
            "repeat the false-sharing window this often, start to start (e.g. 10m; longer than the window); 0: one window");

        public static final PartSpec PART = new PartSpec("falsesharing", List.of(ON, INCLUDE, DELAY, WINDOW, EVERY), PartSpec.Stage.EARLY, true, null,
            new Spec());

        private Spec() {
        }

        /** Starts the part; the spec itself is the starter, not a lambda, for premain's sake (see {@link PartSpec.Starter}). */
        @Override
        public Part start(final PartContext context) throws Exception {
            return FalseSharingPart.start(context.options(), context.instrumentation(), context.beforeMain());
        }
    }

    /** Verdicts a report lists, worst first within each kind. */
    private static final int ROWS = 20;

    private final FalseSharingProbe probe;

    private FalseSharingPart(final FalseSharingProbe probe) {
        this.probe = probe;
    }

    /**
     * Starts the probe as the options say.
     *
     * @param atLoad weave the included classes as they load, from now on, with the counting
     *               switched off until the window: under -javaagent, before main runs
     * @return the part, or null when it could not start (it warned)
     */
    private static FalseSharingPart start(final Options options, final Instrumentation instrumentation, final boolean atLoad) {
        final List<String> include = IncludedPackages.of(options.get(Spec.INCLUDE));
        if (include.isEmpty()) {
            Console.warn("option 'probes.falsesharing.include' is empty and the main class has no package to default to; "
                + "no false-sharing probe");
            return null;
        }
        final FalseSharingSettings settings;
        try {
            settings = new FalseSharingSettings(include, options.get(Spec.DELAY),
                options.get(Spec.WINDOW), options.get(Spec.EVERY));
        } catch (final IllegalArgumentException e) {
            Console.warn(e.getMessage() + "; no false-sharing probe");
            return null;
        }
        final FalseSharingProbe probe = FalseSharingProbe.start(instrumentation, settings, atLoad, Console.WARNINGS);
        if (probe == null) {
            return null;
        }
        try {
            probe.addListener(new FalseSharingEvents());
            probe.addListener(done -> System.setProperty(DONE_PROPERTY, Long.toString(System.currentTimeMillis())));
            return new FalseSharingPart(probe);
        } catch (final OutOfMemoryError full) {
            // mech starts the part again once the heap has room: this probe must not weave and count beside the next
            probe.close();
            throw full;
        }
    }

    @Override
    public String name() {
        return "falsesharing";
    }

    @Override
    public List<MetricFamilies> families() {
        return List.of(new FalseSharingFamilies(probe::snapshot));
    }

    @Override
    public Section section() {
        final FalseSharingSnapshot now = probe.snapshot();
        final List<String> lines = new ArrayList<>(FalseSharingLines.of(now, ROWS));
        final List<ReportRow> rows = new ArrayList<>();
        final List<FalseSharingSnapshot> earlier = probe.earlier();
        for (final FalseSharingSnapshot window : earlier) {
            rows(window, rows);
        }
        rows(now, rows);
        for (int i = earlier.size() - 1; i >= 0; i--) {
            final List<String> window = FalseSharingLines.of(earlier.get(i), ROWS);
            lines.add("  earlier window, ended " + earlier.get(i).ended() + ":");
            for (final String line : window.subList(1, window.size())) {
                lines.add("  " + line);
            }
        }
        return new Section("falsesharing", lines, rows);
    }

    /** A window's verdicts as rows for tools, each with the window's end. */
    private static void rows(final FalseSharingSnapshot window, final List<ReportRow> rows) {
        window.verdicts().forEach(verdict -> rows.add(new VerdictRow(verdict, window.ended())));
    }

    /** One verdict of a window, its lists joined with commas. */
    record VerdictRow(Verdict v, String windowEnded) implements ReportRow {
        @Override
        public void writeTo(final Json json) {
            json.field("verdict", v.kind().label()).field("class", v.className()).field("fields", String.join(",", v.fields()))
                .field("offsets", join(v.offsets())).field("threads", String.join(",", v.threads()))
                .field("rates", join(v.rates())).field("probability", v.probability()).field("score", v.score())
                .field("fix", v.fix()).field("window_ended", windowEnded);
        }

        private static String join(final List<?> values) {
            final List<String> out = new ArrayList<>();
            for (final Object value : values) {
                out.add(String.valueOf(value));
            }
            return String.join(",", out);
        }
    }

    @Override
    public void settle(final long deadline) {
        probe.settle(deadline);
    }
}
