package io.mech.bench;

import host.queues.CallCost;
import host.queues.woven.Ring;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the queue probe adds to the hiccup recorder alone: start-up of a hello world (the weaving
 * happens in premain, on the host's main thread), the time one counted call takes, and the
 * throughput of the queue-heavy kernels, where the woven counting runs on every element. The
 * kernels' own swings from JVM to JVM (several are bimodal on two shared cores) are larger than
 * a few percent, so what the probe adds to an item of each kernel's queue class, measured inside
 * one JVM ({@link CallCost}), is set against the time of the kernel's item as well.
 */
final class QueuesBench {

    /**
     * Target for every queue-heavy kernel: throughput lost, in percent. The issue asks for "not
     * measurable": the kernel rows are judged so by a sign test, adjusted for the seven of them
     * being judged at once, and the share of an item's time, measured in one JVM, must stay within this.
     */
    static final double TARGET_PERCENT = 1;

    /** The queue-heavy kernels, each with the queue class of {@link CallCost} that it moves its items through. */
    private static final Map<String, String> KERNELS = orderedMap(
        "back-pressure:overfed", "ArrayBlockingQueue", "back-pressure:matched", "ArrayBlockingQueue",
        "spsc:blocking-queue", "ArrayBlockingQueue", "mpsc:outpaced", "Ring", "mpsc:throttled", "Ring",
        "executor:fast-task", "LinkedBlockingQueue", "littles-law:steady", "LinkedBlockingQueue");
    private static final List<String> QUEUES = List.of("Ring", "ArrayBlockingQueue", "LinkedBlockingQueue", "ConcurrentLinkedQueue");

    private QueuesBench() {
    }

    private static Map<String, String> orderedMap(final String... keysAndValues) {
        final Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static List<Double> values(final List<String> outs, final String key) {
        final List<Double> values = new ArrayList<>();
        for (final String out : outs) {
            values.add(Jvm.field(out, key));
        }
        return values;
    }

    /** @return the throughput lost to the probe, in percent, round by round */
    private static List<Double> lost(final Map<Config, List<Double>> throughput) {
        return Alternation.paired(throughput.get(Config.QUEUES), throughput.get(Config.HICCUP),
            (with, without) -> 100 * (1 - with / without));
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Config> configs = List.of(Config.HICCUP, Config.QUEUES);
        final List<Row> rows = new ArrayList<>();
        final Map<Config, List<Double>> wall = Alternation.run(setup.rounds(), configs, config ->
            Jvm.run(setup.workDir(), config.jvmArgs(setup, 0),
                List.of("-cp", setup.benchJar().toString(), Hello.class.getName()), 60).wallNanos() / 1e6);
        rows.add(Row.of("queues: start-up added by the probe (hello world)", Config.QUEUES.label + " vs " + Config.HICCUP.label,
            "ms", Stats.of(Alternation.paired(wall.get(Config.QUEUES), wall.get(Config.HICCUP), (with, without) -> with - without))));
        final Map<Config, List<String>> outs = new EnumMap<>(Config.class);
        Alternation.run(setup.rounds(), configs, config -> {
            final List<String> args = List.of(config.jvmArgs(setup, 0).get(0)
                + ",probes.queues.include=" + Ring.class.getPackageName());
            outs.computeIfAbsent(config, c -> new ArrayList<>()).add(Jvm.run(setup.workDir(), args,
                List.of("-cp", setup.benchJar().toString(), CallCost.class.getName()), 300).out());
            return 0;
        });
        final Map<String, List<Double>> netAdded = new HashMap<>();
        for (final String queue : QUEUES) {
            rows.add(Row.of("queues: ns per item (an offer and a poll), " + queue + ", unwoven copy", Config.QUEUES.label, "ns",
                Stats.of(values(outs.get(Config.QUEUES), queue + ".plain_ns_per_item"))));
            for (final Config config : configs) {
                rows.add(Row.of("queues: ns added per item, " + queue + " woven vs its copy in one JVM", config.label, "ns",
                    Stats.of(values(outs.get(config), queue + ".added_ns_per_item"))));
            }
            netAdded.put(queue, Alternation.paired(values(outs.get(Config.QUEUES), queue + ".added_ns_per_item"),
                values(outs.get(Config.HICCUP), queue + ".added_ns_per_item"), (on, off) -> on - off));
            rows.add(Row.of("queues: ns the probe adds per item, " + queue + " (on less off, round by round)",
                Config.QUEUES.label + " vs " + Config.HICCUP.label, "ns", Stats.of(netAdded.get(queue))));
        }
        final List<String> kernels = new ArrayList<>(KERNELS.keySet());
        final List<Map<Config, List<Double>>> throughputs = new ArrayList<>();
        final double[] p = new double[kernels.size()];
        for (int k = 0; k < kernels.size(); k++) {
            // run twice in one JVM and count the warm run
            final List<String> command = List.of("-jar", setup.examplesJar().toString(), kernels.get(k) + "," + kernels.get(k),
                "--seconds", Double.toString(setup.seconds()));
            throughputs.add(Alternation.run(setup.rounds(), configs, config ->
                Jvm.field(Jvm.run(setup.workDir(), config.jvmArgs(setup, 0), command,
                    2 * (long) setup.seconds() + 60).out(), "ops_per_sec", true)));
            p[k] = Stats.signTestP(lost(throughputs.get(k)));
        }
        final double[] adjusted = Stats.holm(p);
        for (int k = 0; k < kernels.size(); k++) {
            final String kernel = kernels.get(k);
            final Map<Config, List<Double>> throughput = throughputs.get(k);
            rows.add(Row.of("queues: throughput lost to the probe (" + kernel + ")", Config.QUEUES.label + " vs " + Config.HICCUP.label, "%",
                Stats.of(lost(throughput))).notMeasurable(adjusted[k], kernels.size(), TARGET_PERCENT));
            final String queue = KERNELS.get(kernel);
            rows.add(Row.of("queues: share of an item's time the probe adds (" + kernel + ": " + queue + "'s ns added x items/s)",
                Config.QUEUES.label, "%", Stats.of(Alternation.paired(throughput.get(Config.QUEUES), netAdded.get(queue),
                    (itemsPerSecond, nanos) -> 100 * nanos * itemsPerSecond / 1e9))).atMost(TARGET_PERCENT));
        }
        return rows;
    }
}
