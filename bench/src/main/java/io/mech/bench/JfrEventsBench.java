package io.mech.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What mech's defaults add to a user's own flight recording: an idle host recorded from its
 * command line with default.jfc, without mech and with it, each file counted by event type with
 * the running JDK's {@code jfr summary}. mech's JFR stream asks for events of its own (lock
 * events from 1 ms, among others), and JFR writes into every running recording what any one of
 * them asks for, so those land in the user's file too; and a recording that starts while another
 * runs begins a new chunk, which repeats the once-per-chunk events. Rates are per second of the
 * host's run, fork to exit.
 */
final class JfrEventsBench {

    /** Target: events per second mech's settings add to the recording, the types they change together. */
    static final double TARGET_ADDED_PER_SECOND = 10;

    /**
     * The JDK's event types whose threshold or period mech's stream sets (hiccup causes and the
     * lock probe): what mech's settings add to a user's recording is counted on these. The rest
     * that a run with mech adds is the once-per-chunk events a second recording repeats (settings,
     * flags, modules: once per chunk, not per second of a long recording) and samples of mech's
     * own threads.
     */
    static final Set<String> SET_BY_MECH = Set.of("jdk.ThreadPark", "jdk.JavaMonitorEnter", "jdk.JavaMonitorWait",
        "jdk.JavaMonitorInflate", "jdk.JavaMonitorDeflate", "jdk.JavaMonitorStatistics", "jdk.GCPhasePause",
        "jdk.GarbageCollection", "jdk.ExecuteVMOperation", "jdk.CPULoad");

    /** How long the host idles while recorded. */
    static final long IDLE_MILLIS = 6_000;

    /** The event types with the most added whose own rows are given. */
    private static final int TOP_TYPES = 5;

    /** A type's line in {@code jfr summary}: name, count, size in bytes. */
    private static final Pattern TYPE_LINE = Pattern.compile("^\\s*(\\S+)\\s+(\\d+)\\s+\\d+\\s*$");

    /** Constant pools and metadata, which jfr summary lists among the types, are no events. */
    private static final Set<String> NOT_EVENTS = Set.of("jdk.CheckPoint", "jdk.Metadata");

    private JfrEventsBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Config> configs = List.of(Config.OFF, Config.DEFAULTS);
        final Map<Config, List<Map<String, Double>>> perSecond = new EnumMap<>(Config.class);
        final int[] runs = {0};
        Alternation.run(setup.rounds(), configs, config -> {
            final Path recording = setup.workDir().resolve("user-" + runs[0]++ + ".jfr");
            final List<String> jvmArgs = new ArrayList<>(config.jvmArgs(setup, 0));
            jvmArgs.add("-XX:StartFlightRecording=filename=" + recording + ",settings=default");
            final Jvm.Run host = Jvm.run(setup.workDir(), jvmArgs,
                List.of("-cp", setup.benchJar().toString(), IdleHost.class.getName(), Long.toString(IDLE_MILLIS)), 60);
            final Map<String, Double> rates = new HashMap<>();
            summary(setup.workDir(), recording).forEach((type, count) -> rates.put(type, count / (host.wallNanos() / 1e9)));
            perSecond.computeIfAbsent(config, c -> new ArrayList<>()).add(rates);
            return 0;
        });
        final List<Map<String, Double>> without = perSecond.get(Config.OFF);
        final List<Map<String, Double>> with = perSecond.get(Config.DEFAULTS);
        final String figure = "JFR: events per second in a user's recording (default.jfc) of an idle host, " + IDLE_MILLIS / 1_000 + " s";
        final List<Row> rows = new ArrayList<>();
        rows.add(Row.of(figure, Config.OFF.label, "1/s", Stats.of(totals(without, null))));
        rows.add(Row.of("JFR: events per second added to it, the types mech's settings change", Config.DEFAULTS.label, "1/s",
            Stats.of(Alternation.paired(totals(with, SET_BY_MECH), totals(without, SET_BY_MECH), (on, off) -> on - off)))
            .atMost(TARGET_ADDED_PER_SECOND));
        rows.add(Row.of("JFR: events per second added to it, all types", Config.DEFAULTS.label, "1/s",
            Stats.of(Alternation.paired(totals(with, null), totals(without, null), (on, off) -> on - off))));
        final Set<String> types = new TreeSet<>();
        for (final Map<String, Double> rates : with) {
            types.addAll(rates.keySet());
        }
        final List<Row> byType = new ArrayList<>();
        for (final String type : types) {
            final Stats added = Stats.of(Alternation.paired(rate(with, type), rate(without, type), (on, off) -> on - off));
            if (added.median() > 0) {
                byType.add(Row.of("JFR: events per second added to it, " + type, Config.DEFAULTS.label, "1/s", added));
            }
        }
        byType.sort(Comparator.comparingDouble((Row row) -> row.stats().median()).reversed());
        rows.addAll(byType.subList(0, Math.min(TOP_TYPES, byType.size())));
        return rows;
    }

    /** Each run's events per second, of the given types or, with null, of all. */
    private static List<Double> totals(final List<Map<String, Double>> runs, final Set<String> types) {
        final List<Double> totals = new ArrayList<>();
        for (final Map<String, Double> rates : runs) {
            double total = 0;
            for (final Map.Entry<String, Double> rate : rates.entrySet()) {
                if (types == null || types.contains(rate.getKey())) {
                    total += rate.getValue();
                }
            }
            totals.add(total);
        }
        return totals;
    }

    /** One type's rate in each run, 0 where the run recorded none. */
    private static List<Double> rate(final List<Map<String, Double>> runs, final String type) {
        final List<Double> rates = new ArrayList<>();
        for (final Map<String, Double> run : runs) {
            rates.add(run.getOrDefault(type, 0.0));
        }
        return rates;
    }

    /** Events by type in a recording, as the running JDK's {@code jfr summary} counts them. */
    static Map<String, Long> summary(final Path workDir, final Path recording) throws IOException, InterruptedException {
        final Path out = Files.createTempFile(workDir, "summary", ".txt");
        final List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "jfr").toString(), "summary",
            recording.toString());
        final Process jfr = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!jfr.waitFor(60, TimeUnit.SECONDS)) {
            jfr.destroyForcibly().waitFor();
            throw new IOException("timed out after 60 s: " + String.join(" ", command));
        }
        final String text = Files.readString(out, StandardCharsets.UTF_8);
        if (jfr.exitValue() != 0) {
            throw new IOException("exit " + jfr.exitValue() + ": " + String.join(" ", command) + "\n" + text);
        }
        return counts(text);
    }

    /** The counts of a {@code jfr summary} output's type table, types with none left out. */
    static Map<String, Long> counts(final String summary) {
        final Map<String, Long> counts = new HashMap<>();
        boolean table = false;
        for (final String line : summary.split("\n")) {
            if (line.startsWith("====")) {
                table = true;
                continue;
            }
            final Matcher type = TYPE_LINE.matcher(line);
            if (table && type.matches() && !NOT_EVENTS.contains(type.group(1)) && Long.parseLong(type.group(2)) > 0) {
                counts.put(type.group(1), Long.parseLong(type.group(2)));
            }
        }
        if (!table) {
            throw new IllegalStateException("no event type table in jfr summary's output:\n" + summary);
        }
        return counts;
    }
}
