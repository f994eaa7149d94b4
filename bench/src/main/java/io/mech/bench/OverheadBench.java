package io.mech.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The throughput mech costs the example kernels, as the ratio of runs with and without it. On the
 * CPU-bound and the allocation-heavy kernels, jHiccup and mech's defaults run too, the defaults'
 * exporter scraped every 5 s as a Prometheus would, and mech's losses are set against jHiccup's
 * round by round.
 */
final class OverheadBench {

    /** Target: at most this share of throughput lost, in percent. */
    static final double TARGET_LOSS_PERCENT = 1;

    /** Target of the defaults on the CPU-bound kernel: at most this many points lost beyond jHiccup's loss. */
    static final double TARGET_POINTS_BEYOND_JHICCUP = 1;

    /** Target of the defaults over the CPU-bound kernel's first seconds: at most this many points beyond jHiccup's loss. */
    static final double TARGET_FIRST_POINTS_BEYOND_JHICCUP = 2;

    /**
     * The cold run: the CPU-bound kernel's first seconds in a fresh JVM, which a batch job or a
     * freshly scaled-out service lives in, and where mech's start (weaving, JIT, a JFR stream
     * should one open) falls.
     */
    static final int FIRST_SECONDS = 10;

    /**
     * Seconds of warm-up before the measured run, so that it measures the steady state. mech
     * starts its JFR stream a second into the host's life and the JIT compiles the stream's code
     * over the next few (per thread, the compiler threads' CPU under the defaults settles by
     * about 5 s); the exporter's JVM metrics are built at the first scrape, 5 s in at most. A
     * measured run from 3 s to 6 s, as before, held that warm-up and read it as a steady cost.
     * What the warm-up costs is the memory part's CPU row over an idle host's first 10 s.
     */
    static final double WARMUP_SECONDS = 10;

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

    /** The kinds of load, as {@code --loads} names them. */
    static List<String> kinds() {
        return LOADS.stream().map(Load::kind).toList();
    }

    /** The kinds of load measured with jHiccup and mech's defaults too. */
    private static final Set<String> BESIDE_JHICCUP = Set.of("CPU-bound", "allocation-heavy");

    private OverheadBench() {
    }

    /** One kernel run's throughput, with a scraper reading /metrics meanwhile where the configuration serves it. */
    private static double measure(final Setup setup, final Config config, final List<String> kernel) throws Exception {
        final int port = Ports.free();
        final Duration period = scrapePeriod(config);
        final Thread scraper = period == null ? null : new Scraper(port).every(period);
        try {
            return Jvm.field(Jvm.run(setup.workDir(), config.jvmArgs(setup, port), kernel,
                (long) (WARMUP_SECONDS + 2 * setup.seconds()) + 60).out(), "ops_per_sec", true);
        } finally {
            if (scraper != null) {
                scraper.interrupt();
            }
        }
    }

    /** Every second with the exporter configuration, every 5 s (as a Prometheus would) with the defaults, else null: nothing served. */
    private static Duration scrapePeriod(final Config config) {
        return switch (config) {
            case EXPORTER -> Duration.ofSeconds(1);
            case DEFAULTS -> Duration.ofSeconds(5);
            default -> null;
        };
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Row> rows = new ArrayList<>();
        for (final Load load : LOADS) {
            if (!setup.loads().isEmpty() && !setup.loads().contains(load.kind())) {
                continue;
            }
            // The variant runs again and again in one JVM and the last, warm run counts: JIT
            // compilation and mech's own start-up (JFR stream, exporter) fall in the runs before.
            final int runs = 1 + (int) Math.ceil(WARMUP_SECONDS / setup.seconds());
            final String variant = load.kernel() + ":" + load.variant();
            final List<String> kernel = List.of("-jar", setup.examplesJar().toString(),
                String.join(",", Collections.nCopies(runs, variant)), "--seconds", Double.toString(setup.seconds()));
            final List<Config> configs = new ArrayList<>(List.of(Config.OFF, Config.HICCUP, Config.CAUSES, Config.EXPORTER));
            final boolean besideJHiccup = BESIDE_JHICCUP.contains(load.kind());
            if (besideJHiccup) {
                configs.add(Config.DEFAULTS);
                if (setup.jHiccup().isPresent()) {
                    configs.add(1, Config.JHICCUP);
                }
            }
            final Map<Config, List<Double>> throughput = Alternation.run(setup.rounds(), configs,
                config -> measure(setup, config, kernel));
            final Map<Config, List<Double>> lost = new EnumMap<>(Config.class);
            final String loadName = load.kind() + " (" + load.kernel() + " " + load.variant() + ")";
            for (final Config config : configs.subList(1, configs.size())) {
                lost.put(config, Alternation.paired(throughput.get(config), throughput.get(Config.OFF),
                    (with, without) -> 100 * (1 - with / without)));
                final Row row = Row.of("throughput lost: " + loadName, config.label, "%", Stats.of(lost.get(config)));
                rows.add(config.isReference() ? row : row.atMost(TARGET_LOSS_PERCENT));
            }
            if (load.kind().equals("CPU-bound")) {
                rows.addAll(firstSeconds(setup, load, loadName));
            }
            if (besideJHiccup && setup.jHiccup().isPresent()) {
                for (final Config config : List.of(Config.HICCUP, Config.DEFAULTS)) {
                    final Row row = Row.of("throughput lost less jHiccup's: " + loadName,
                        config.label + " vs " + Config.JHICCUP.label, "points",
                        Stats.of(Alternation.paired(lost.get(config), lost.get(Config.JHICCUP), (mech, jHiccup) -> mech - jHiccup)));
                    final boolean judged = config == Config.DEFAULTS && load.kind().equals("CPU-bound");
                    rows.add(judged ? row.atMost(TARGET_POINTS_BEYOND_JHICCUP) : row);
                }
            }
        }
        return rows;
    }

    /**
     * The throughput lost over a fresh JVM's first {@link #FIRST_SECONDS}: jHiccup, and mech part
     * by part (the recorder, its causes, the lock probe, the defaults, which add /metrics scraped
     * every 5 s), each against no agent, so that the defaults' points beyond jHiccup's are put down
     * to the parts that take them.
     */
    private static List<Row> firstSeconds(final Setup setup, final Load load, final String loadName) throws Exception {
        final List<String> kernel = List.of("-jar", setup.examplesJar().toString(), load.kernel() + ":" + load.variant(),
            "--seconds", Integer.toString(FIRST_SECONDS));
        final List<Config> configs = new ArrayList<>(List.of(Config.OFF, Config.HICCUP, Config.CAUSES, Config.LOCKS, Config.DEFAULTS));
        if (setup.jHiccup().isPresent()) {
            configs.add(1, Config.JHICCUP);
        }
        final Map<Config, List<Double>> throughput = Alternation.run(setup.rounds(), configs, config -> measure(setup, config, kernel));
        final Map<Config, List<Double>> lost = new EnumMap<>(Config.class);
        final List<Row> rows = new ArrayList<>();
        final String figure = "throughput lost over the first " + FIRST_SECONDS + " s: " + loadName;
        for (final Config config : configs.subList(1, configs.size())) {
            lost.put(config, Alternation.paired(throughput.get(config), throughput.get(Config.OFF),
                (with, without) -> 100 * (1 - with / without)));
            rows.add(Row.of(figure, config.label, "%", Stats.of(lost.get(config))));
        }
        if (setup.jHiccup().isPresent()) {
            for (final Config config : configs.subList(2, configs.size())) {
                final Row row = Row.of(figure + ", less jHiccup's", config.label + " vs " + Config.JHICCUP.label, "points",
                    Stats.of(Alternation.paired(lost.get(config), lost.get(Config.JHICCUP), (mech, jHiccup) -> mech - jHiccup)));
                rows.add(config == Config.DEFAULTS ? row.atMost(TARGET_FIRST_POINTS_BEYOND_JHICCUP) : row);
            }
        }
        return rows;
    }
}
