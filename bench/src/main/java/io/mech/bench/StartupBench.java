package io.mech.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What mech adds to a hello-world JVM, beside what jHiccup adds: wall time, fork to exit, and CPU
 * time (user and system, every thread, read through {@link GnuTime}), for the hiccup recorder
 * alone and for everything mech switches on by default. Each tool is also set against jHiccup
 * round by round. Without GNU time the CPU rows are left out.
 */
final class StartupBench {

    /** Target of the hiccup-only configuration and of the defaults: wall time added, in milliseconds. */
    static final double TARGET_MILLIS = 150;
    /** Target of the defaults: CPU time added, in milliseconds. */
    static final double TARGET_CPU_MILLIS = 250;
    /** Target for the lean configuration's start-up over jHiccup's, in milliseconds. */
    static final double LEAN_OVER_JHICCUP_MILLIS = 10;

    private StartupBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final boolean cpu = GnuTime.available();
        if (!cpu) {
            System.err.println("bench: no " + GnuTime.PATH + " (Debian package time): the start-up CPU rows are left out");
        }
        final List<Config> configs = new ArrayList<>(List.of(Config.OFF, Config.HICCUP, Config.CAUSES, Config.DEFAULTS));
        if (setup.jHiccup().isPresent()) {
            configs.add(1, Config.JHICCUP);
        }
        final Map<Config, List<Double>> cpuMillis = new EnumMap<>(Config.class);
        final Map<Config, List<Double>> wall = Alternation.run(setup.rounds(), configs, config -> {
            final Jvm.Run run = Jvm.run(setup.workDir(), cpu ? GnuTime.wrapper() : List.of(), config.jvmArgs(setup, 0),
                List.of("-cp", setup.benchJar().toString(), Hello.class.getName()), 60);
            if (cpu) {
                cpuMillis.computeIfAbsent(config, c -> new ArrayList<>()).add(GnuTime.cpuMillis(run.err()));
            }
            return run.wallNanos() / 1e6;
        });
        final List<Row> rows = new ArrayList<>();
        rows.add(Row.of("startup: hello world wall time", Config.OFF.label, "ms", Stats.of(wall.get(Config.OFF))));
        for (final Config config : configs.subList(1, configs.size())) {
            final Row added = Row.of("startup: time added", config.label, "ms", difference(wall, config, Config.OFF));
            rows.add(config.isReference() ? added : added.atMost(TARGET_MILLIS));
        }
        if (setup.jHiccup().isPresent()) {
            rows.add(Row.of("startup: time added less jHiccup's", Config.HICCUP.label + " vs " + Config.JHICCUP.label, "ms",
                difference(wall, Config.HICCUP, Config.JHICCUP)).below(0));
            rows.add(Row.of("startup: time added less jHiccup's", Config.CAUSES.label + " vs " + Config.JHICCUP.label, "ms",
                difference(wall, Config.CAUSES, Config.JHICCUP)).atMost(LEAN_OVER_JHICCUP_MILLIS));
            rows.add(Row.of("startup: time added less jHiccup's", Config.DEFAULTS.label + " vs " + Config.JHICCUP.label, "ms",
                difference(wall, Config.DEFAULTS, Config.JHICCUP)));
        }
        if (cpu) {
            rows.add(Row.of("startup: hello world CPU time (user + sys)", Config.OFF.label, "ms", Stats.of(cpuMillis.get(Config.OFF))));
            for (final Config config : configs.subList(1, configs.size())) {
                final Row added = Row.of("startup: CPU time added", config.label, "ms", difference(cpuMillis, config, Config.OFF));
                rows.add(config == Config.DEFAULTS ? added.atMost(TARGET_CPU_MILLIS) : added);
            }
            if (setup.jHiccup().isPresent()) {
                for (final Config config : List.of(Config.HICCUP, Config.CAUSES, Config.DEFAULTS)) {
                    rows.add(Row.of("startup: CPU time added less jHiccup's", config.label + " vs " + Config.JHICCUP.label, "ms",
                        difference(cpuMillis, config, Config.JHICCUP)));
                }
            }
        }
        return rows;
    }

    /** Round by round, the sample of one configuration less that of another. */
    private static Stats difference(final Map<Config, List<Double>> samples, final Config config, final Config base) {
        return Stats.of(Alternation.paired(samples.get(config), samples.get(base), (with, without) -> with - without));
    }
}
