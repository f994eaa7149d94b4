package io.mech.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the lock probe adds to the hiccup recorder alone: start-up of a hello world, and the
 * throughput of the locks kernels, uncontended (where the probe must cost nothing measurable:
 * uncontended lock() never reaches the woven slow path) and contended. On the contended kernels
 * (a monitor, and a ReentrantLock every thread takes, as a hot stripe of a striped lock is) the
 * probe is read beside what the other ways of watching locks cost the same kernel without mech:
 * JFR's own monitor-enter and park events at default.jfc's thresholds, and async-profiler's lock mode.
 */
final class LocksBench {

    /** Target for the uncontended kernels: throughput lost, in percent. */
    static final double TARGET_UNCONTENDED_PERCENT = 1;
    /** Target for the contended kernels, every part of the probe counted: throughput lost, in percent. */
    static final double TARGET_CONTENDED_PERCENT = 3;

    private static final List<String> UNCONTENDED = List.of("synchronized-single", "reentrant-single");
    private static final List<String> CONTENDED = List.of("synchronized-contended", "reentrant-contended");

    private LocksBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Config> configs = List.of(Config.HICCUP, Config.LOCKS);
        final List<Row> rows = new ArrayList<>();
        final Map<Config, List<Double>> wall = Alternation.run(setup.rounds(), configs, config ->
            Jvm.run(setup.workDir(), config.jvmArgs(setup, 0),
                List.of("-cp", setup.benchJar().toString(), Hello.class.getName()), 60).wallNanos() / 1e6);
        rows.add(Row.of("locks: start-up added by the probe (hello world)", Config.LOCKS.label + " vs " + Config.HICCUP.label,
            "ms", Stats.of(Alternation.paired(wall.get(Config.LOCKS), wall.get(Config.HICCUP), (with, without) -> with - without))));
        for (final String variant : concat(UNCONTENDED, CONTENDED)) {
            final boolean contended = CONTENDED.contains(variant);
            // run twice in one JVM and count the warm run: the probe's own start-up falls in the first
            final List<String> kernel = List.of("-jar", setup.examplesJar().toString(), "locks:" + variant + ",locks:" + variant,
                "--seconds", Double.toString(setup.seconds()));
            final List<Config> compared = contended
                ? List.of(Config.OFF, Config.HICCUP, Config.LOCKS, Config.JFR, Config.ASYNC_PROFILER_LOCK) : configs;
            final Map<Config, List<Double>> throughput = Alternation.run(setup.rounds(), compared, config ->
                Jvm.field(Jvm.run(setup.workDir(), config.jvmArgs(setup, 0), kernel,
                    2 * (long) setup.seconds() + 60).out(), "ops_per_sec", true));
            final Row row = lost("locks: throughput lost to the probe (locks " + variant + ")", throughput, Config.LOCKS, Config.HICCUP);
            rows.add(row.atMost(contended ? TARGET_CONTENDED_PERCENT : TARGET_UNCONTENDED_PERCENT));
            if (contended) {
                rows.add(lost("locks: throughput lost to JFR's lock events (locks " + variant + ")", throughput, Config.JFR, Config.OFF));
                rows.add(lost("locks: throughput lost to async-profiler's lock mode (locks " + variant + ")", throughput,
                    Config.ASYNC_PROFILER_LOCK, Config.OFF));
            }
        }
        return rows;
    }

    private static Row lost(final String figure, final Map<Config, List<Double>> throughput, final Config with, final Config without) {
        return Row.of(figure, with.label + " vs " + without.label, "%", Stats.of(Alternation.paired(throughput.get(with),
            throughput.get(without), (a, b) -> 100 * (1 - a / b))));
    }

    private static List<String> concat(final List<String> a, final List<String> b) {
        final List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
