package io.mech.bench;

import host.queues.CallCost;
import host.queues.woven.Ring;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the queue probe adds to the hiccup recorder alone: start-up of a hello world (the weaving
 * happens in premain, on the host's main thread), the time one counted call takes, and the
 * throughput of the queue-heavy kernels, where the woven counting runs on every element. The
 * kernels' own swings from JVM to JVM (several are bimodal on two shared cores) are larger than
 * a few percent, so the per-call figure, measured inside one JVM ({@link CallCost}), is set
 * against the time of an mpsc item as well.
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
        final Map<Config, List<Double>> plain = new EnumMap<>(Config.class);
        final Map<Config, List<Double>> added = Alternation.run(setup.rounds(), configs, config -> {
            final List<String> args = List.of(config.jvmArgs(setup.mechJar(), setup.workDir(), 0).get(0)
                + ",probes.queues.include=" + Ring.class.getPackageName());
            final String out = Jvm.run(setup.workDir(), args, List.of("-cp", setup.benchJar().toString(), CallCost.class.getName()), 120).out();
            plain.computeIfAbsent(config, c -> new ArrayList<>()).add(Jvm.field(out, "plain_ns_per_call"));
            return Jvm.field(out, "added_ns_per_call");
        });
        rows.add(Row.of("queues: ns per offer or poll of an application ring queue, unwoven", Config.QUEUES.label, "ns",
            Stats.of(plain.get(Config.QUEUES))));
        for (final Config config : configs) {
            rows.add(Row.of("queues: ns added per counted offer or poll (the ring, woven vs unwoven in one JVM)", config.label, "ns",
                Stats.of(added.get(config))));
        }
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
            if (kernel.startsWith("mpsc:")) {
                // its queue is an application class: an offer and a poll per item, each costing what the ring's row says
                rows.add(Row.of("queues: time per item the counting takes (" + kernel + ": 2 calls x ns added / ns per item)",
                    Config.QUEUES.label, "%", Stats.of(Alternation.paired(throughput.get(Config.QUEUES), added.get(Config.QUEUES),
                        (itemsPerSecond, nanosPerCall) -> 100 * 2 * nanosPerCall * itemsPerSecond / 1e9))).atMost(TARGET_PERCENT));
            }
        }
        return rows;
    }
}
