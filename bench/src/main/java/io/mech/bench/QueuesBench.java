package io.mech.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the queue probe adds to the hiccup recorder alone: start-up of a hello world (the weaving
 * happens in premain, on the host's main thread), and the throughput of the queue-heavy kernels,
 * where the woven dequeue counting runs on every element.
 */
final class QueuesBench {

    /** Target for every queue-heavy kernel: throughput lost, in percent (not measurable). */
    static final double TARGET_PERCENT = 1;

    private static final List<String> KERNELS = List.of("back-pressure:overfed", "back-pressure:matched",
        "spsc:blocking-queue", "mpsc:outpaced", "mpsc:throttled", "executor:fast-task", "littles-law:steady");

    private QueuesBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Config> configs = List.of(Config.HICCUP, Config.QUEUES);
        final List<Row> rows = new ArrayList<>();
        final Map<Config, List<Double>> wall = Alternation.run(setup.rounds(), configs, config ->
            Jvm.run(setup.workDir(), config.jvmArgs(setup.mechJar(), setup.workDir(), 0),
                List.of("-cp", setup.benchJar().toString(), Hello.class.getName()), 60).wallNanos() / 1e6);
        rows.add(Row.of("queues: start-up added by the probe (hello world)", Config.QUEUES.label + " vs " + Config.HICCUP.label,
            "ms", Stats.of(Alternation.paired(wall.get(Config.QUEUES), wall.get(Config.HICCUP), (with, without) -> with - without))));
        for (final String kernel : KERNELS) {
            // run twice in one JVM and count the warm run
            final List<String> command = List.of("-jar", setup.examplesJar().toString(), kernel + "," + kernel,
                "--seconds", Double.toString(setup.seconds()));
            final Map<Config, List<Double>> throughput = Alternation.run(setup.rounds(), configs, config ->
                Jvm.field(Jvm.run(setup.workDir(), config.jvmArgs(setup.mechJar(), setup.workDir(), 0), command,
                    2 * (long) setup.seconds() + 60).out(), "ops_per_sec", true));
            rows.add(Row.of("queues: throughput lost to the probe (" + kernel + ")", Config.QUEUES.label + " vs " + Config.HICCUP.label, "%",
                Stats.of(Alternation.paired(throughput.get(Config.QUEUES), throughput.get(Config.HICCUP),
                    (with, without) -> 100 * (1 - with / without)))).atMost(TARGET_PERCENT));
        }
        return rows;
    }
}
