package io.mech.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The wall time mech adds to a hello-world JVM, fork to exit: the hiccup recorder alone (the
 * issue's target) and everything mech switches on by default (JFR stream and exporter too).
 */
final class StartupBench {

    /** Target of the hiccup-only configuration, in milliseconds. */
    static final double TARGET_MILLIS = 150;

    private StartupBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Config> configs = List.of(Config.OFF, Config.HICCUP, Config.DEFAULTS);
        final Map<Config, List<Double>> wall = Alternation.run(setup.rounds(), configs, config ->
            Jvm.run(setup.workDir(), config.jvmArgs(setup, 0),
                List.of("-cp", setup.benchJar().toString(), Hello.class.getName()), 60).wallNanos() / 1e6);
        final List<Row> rows = new ArrayList<>();
        rows.add(Row.of("startup: hello world wall time", Config.OFF.label, "ms", Stats.of(wall.get(Config.OFF))));
        for (final Config config : List.of(Config.HICCUP, Config.DEFAULTS)) {
            final Row added = Row.of("startup: time added", config.label, "ms",
                Stats.of(Alternation.paired(wall.get(config), wall.get(Config.OFF), (with, without) -> with - without)));
            rows.add(config == Config.HICCUP ? added.atMost(TARGET_MILLIS) : added);
        }
        return rows;
    }
}
