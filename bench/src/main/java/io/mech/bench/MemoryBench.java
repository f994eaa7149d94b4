package io.mech.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What mech adds to an idle JVM over its first 10 s: the peak resident set, the live heap and the
 * CPU time, beside what jHiccup adds and what a JFR recording costs with no agent at all. Ten
 * seconds, not a hello world's few milliseconds, because mech defers its JFR stream by a second
 * and compiling that stream's code takes the next few: a hello world never pays for them, a
 * service always does. Without GNU time the CPU rows are left out.
 */
final class MemoryBench {

    /** Target for the resident set added, in MiB. */
    static final double TARGET_RSS_MIB = 32;
    /** Target for the lean configuration's resident set over jHiccup's, in MiB. */
    static final double LEAN_OVER_JHICCUP_MIB = 4;

    private static final long IDLE_MILLIS = 10_000;

    private MemoryBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final boolean cpu = GnuTime.available();
        final List<Config> configs = new ArrayList<>(List.of(Config.OFF, Config.HICCUP, Config.CAUSES, Config.CAUSES_JFR, Config.DEFAULTS,
            Config.JFR));
        if (setup.jHiccup().isPresent()) {
            configs.add(1, Config.JHICCUP);
        }
        final List<String> host = List.of("-cp", setup.benchJar().toString(), IdleHost.class.getName(), Long.toString(IDLE_MILLIS));
        final Map<Config, List<Double>> outputs = new EnumMap<>(Config.class);
        final Map<Config, List<Double>> cpuMillis = new EnumMap<>(Config.class);
        final Map<Config, List<Double>> rss = Alternation.run(setup.rounds(), configs, config -> {
            final Jvm.Run run = Jvm.run(setup.workDir(), cpu ? GnuTime.wrapper() : List.of(), config.jvmArgs(setup, 0), host, 60);
            outputs.computeIfAbsent(config, c -> new ArrayList<>()).add(Jvm.field(run.out(), "heap_bytes") / (1024.0 * 1024));
            if (cpu) {
                cpuMillis.computeIfAbsent(config, c -> new ArrayList<>()).add(GnuTime.cpuMillis(run.err()));
            }
            return Jvm.field(run.out(), "hwm_kib") / 1024.0;
        });
        final List<Row> rows = new ArrayList<>();
        rows.add(Row.of("memory: idle JVM peak RSS", Config.OFF.label, "MiB", Stats.of(rss.get(Config.OFF))));
        for (final Config config : configs.subList(1, configs.size())) {
            final Row added = Row.of("memory: peak RSS added", config.label, "MiB", difference(rss, config, Config.OFF));
            rows.add(config.isReference() ? added : added.atMost(TARGET_RSS_MIB));
            rows.add(Row.of("memory: live heap added", config.label, "MiB", difference(outputs, config, Config.OFF)));
        }
        rows.add(Row.of("memory: peak RSS added less JFR's alone", Config.DEFAULTS.label + " vs " + Config.JFR.label, "MiB",
            difference(rss, Config.DEFAULTS, Config.JFR)));
        if (cpu) {
            rows.add(Row.of("idle 10 s: CPU time (user + sys)", Config.OFF.label, "ms", Stats.of(cpuMillis.get(Config.OFF))));
            for (final Config config : configs.subList(1, configs.size())) {
                rows.add(Row.of("idle 10 s: CPU time added", config.label, "ms", difference(cpuMillis, config, Config.OFF)));
            }
            rows.add(Row.of("idle 10 s: CPU time added less JFR's alone", Config.DEFAULTS.label + " vs " + Config.JFR.label, "ms",
                difference(cpuMillis, Config.DEFAULTS, Config.JFR)));
        }
        if (setup.jHiccup().isPresent()) {
            for (final Config config : List.of(Config.HICCUP, Config.CAUSES, Config.DEFAULTS)) {
                final Row row = Row.of("memory: peak RSS added less jHiccup's", config.label + " vs " + Config.JHICCUP.label, "MiB",
                    difference(rss, config, Config.JHICCUP));
                rows.add(config == Config.CAUSES ? row.atMost(LEAN_OVER_JHICCUP_MIB) : row);
            }
        }
        return rows;
    }

    /** Round by round, the sample of one configuration less that of another. */
    private static Stats difference(final Map<Config, List<Double>> samples, final Config config, final Config base) {
        return Stats.of(Alternation.paired(samples.get(config), samples.get(base), (with, without) -> with - without));
    }
}
