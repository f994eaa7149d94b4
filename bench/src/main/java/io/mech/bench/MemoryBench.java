package io.mech.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The peak resident set and the live heap that mech adds to an idle JVM, beside what jHiccup adds. */
final class MemoryBench {

    /** Target for the resident set added, in MiB. */
    static final double TARGET_RSS_MIB = 32;

    private static final long IDLE_MILLIS = 2_000;

    private MemoryBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Config> configs = new ArrayList<>(List.of(Config.OFF, Config.HICCUP, Config.DEFAULTS));
        if (setup.jHiccup().isPresent()) {
            configs.add(1, Config.JHICCUP);
        }
        final List<String> host = List.of("-cp", setup.benchJar().toString(), IdleHost.class.getName(), Long.toString(IDLE_MILLIS));
        final Map<Config, List<Double>> outputs = new EnumMap<>(Config.class);
        final Map<Config, List<Double>> rss = Alternation.run(setup.rounds(), configs, config -> {
            final String out = Jvm.run(setup.workDir(), config.jvmArgs(setup, 0), host, 60).out();
            outputs.computeIfAbsent(config, c -> new ArrayList<>()).add(Jvm.field(out, "heap_bytes") / (1024.0 * 1024));
            return Jvm.field(out, "hwm_kib") / 1024.0;
        });
        final List<Row> rows = new ArrayList<>();
        rows.add(Row.of("memory: idle JVM peak RSS", Config.OFF.label, "MiB", Stats.of(rss.get(Config.OFF))));
        for (final Config config : configs.subList(1, configs.size())) {
            final Row added = Row.of("memory: peak RSS added", config.label, "MiB", difference(rss, config, Config.OFF));
            rows.add(config.isJHiccup() ? added : added.atMost(TARGET_RSS_MIB));
            rows.add(Row.of("memory: live heap added", config.label, "MiB", difference(outputs, config, Config.OFF)));
        }
        if (setup.jHiccup().isPresent()) {
            for (final Config config : List.of(Config.HICCUP, Config.DEFAULTS)) {
                rows.add(Row.of("memory: peak RSS added less jHiccup's", config.label + " vs " + Config.JHICCUP.label, "MiB",
                    difference(rss, config, Config.JHICCUP)));
            }
        }
        return rows;
    }

    /** Round by round, the sample of one configuration less that of another. */
    private static Stats difference(final Map<Config, List<Double>> samples, final Config config, final Config base) {
        return Stats.of(Alternation.paired(samples.get(config), samples.get(base), (with, without) -> with - without));
    }
}
