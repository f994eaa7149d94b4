package io.mech.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** The peak resident set and the live heap that mech adds to an idle JVM. */
final class MemoryBench {

    /** Target for the resident set added, in MiB. */
    static final double TARGET_RSS_MIB = 32;

    private static final long IDLE_MILLIS = 2_000;

    private MemoryBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Config> configs = List.of(Config.OFF, Config.HICCUP, Config.DEFAULTS);
        final List<String> host = List.of("-cp", setup.benchJar().toString(), IdleHost.class.getName(), Long.toString(IDLE_MILLIS));
        final Map<Config, List<Double>> outputs = new EnumMap<>(Config.class);
        final Map<Config, List<Double>> rss = Alternation.run(setup.rounds(), configs, config -> {
            final String out = Jvm.run(setup.workDir(), config.jvmArgs(setup, 0), host, 60).out();
            outputs.computeIfAbsent(config, c -> new ArrayList<>()).add(Jvm.field(out, "heap_bytes") / (1024.0 * 1024));
            return Jvm.field(out, "hwm_kib") / 1024.0;
        });
        final List<Row> rows = new ArrayList<>();
        rows.add(Row.of("memory: idle JVM peak RSS", Config.OFF.label, "MiB", Stats.of(rss.get(Config.OFF))));
        for (final Config config : List.of(Config.HICCUP, Config.DEFAULTS)) {
            rows.add(Row.of("memory: peak RSS added", config.label, "MiB",
                Stats.of(Alternation.paired(rss.get(config), rss.get(Config.OFF), (with, without) -> with - without)))
                .atMost(TARGET_RSS_MIB));
            rows.add(Row.of("memory: live heap added", config.label, "MiB",
                Stats.of(Alternation.paired(outputs.get(config), outputs.get(Config.OFF), (with, without) -> with - without))));
        }
        return rows;
    }
}
