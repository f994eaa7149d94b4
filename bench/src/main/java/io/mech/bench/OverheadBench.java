package io.mech.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The throughput mech costs the example kernels, as the ratio of runs with and without it. */
final class OverheadBench {

    /** Target: at most this share of throughput lost, in percent. */
    static final double TARGET_LOSS_PERCENT = 1;

    /**
     * A kernel of mech-examples.jar standing for a kind of load.
     *
     * @param kind    what kind of load it is
     * @param kernel  the kernel's name
     * @param variant the variant's name
     */
    record Load(String kind, String kernel, String variant) {
    }

    static final List<Load> LOADS = List.of(
        new Load("CPU-bound", "false-sharing", "padded"),
        new Load("allocation-heavy", "gc-pause", "small-live-set"),
        new Load("lock-heavy", "locks", "synchronized-contended"),
        new Load("queue-heavy", "back-pressure", "overfed"));

    private OverheadBench() {
    }

    /** One kernel run's throughput; with the exporter on, a scraper reads /metrics every second meanwhile. */
    private static double measure(final Setup setup, final Config config, final List<String> kernel) throws Exception {
        final int port = Ports.free();
        final Thread scraper = config == Config.EXPORTER ? new Scraper(port).everySecond() : null;
        try {
            return Jvm.field(Jvm.run(setup.workDir(), config.jvmArgs(setup, port), kernel,
                2 * (long) setup.seconds() + 60).out(), "ops_per_sec", true);
        } finally {
            if (scraper != null) {
                scraper.interrupt();
            }
        }
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Row> rows = new ArrayList<>();
        for (final Load load : LOADS) {
            // The variant runs twice in one JVM and the second, warm run counts: JIT compilation
            // and mech's own start-up (JFR stream, exporter) fall in the first.
            final String twice = load.kernel() + ":" + load.variant() + "," + load.kernel() + ":" + load.variant();
            final List<String> kernel = List.of("-jar", setup.examplesJar().toString(), twice,
                "--seconds", Double.toString(setup.seconds()));
            final List<Config> configs = List.of(Config.OFF, Config.HICCUP, Config.CAUSES, Config.EXPORTER);
            final Map<Config, List<Double>> throughput = Alternation.run(setup.rounds(), configs,
                config -> measure(setup, config, kernel));
            for (final Config config : List.of(Config.HICCUP, Config.CAUSES, Config.EXPORTER)) {
                rows.add(Row.of("throughput lost: " + load.kind() + " (" + load.kernel() + " " + load.variant() + ")",
                    config.label, "%", Stats.of(Alternation.paired(throughput.get(config), throughput.get(Config.OFF),
                        (with, without) -> 100 * (1 - with / without)))).atMost(TARGET_LOSS_PERCENT));
            }
        }
        return rows;
    }
}
