package io.mech.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The false-sharing probe's figures: that what it flags really costs throughput (each flagged
 * variant against the twin that applies the fix the probe names, without mech, with
 * {@code -XX:ObjectAlignmentInBytes=64} so placement is the same every run), what 64 bytes of
 * separation cost next to 128 and next to one line, what its window costs a kernel while open
 * and after it closed, what the weaving at load costs switched off, and what switching it on
 * adds to a start-up.
 */
final class FalseSharingBench {

    /** Target while the window is open, in percent of throughput. */
    static final double TARGET_WINDOW_LOSS_PERCENT = 5;
    /** Target after the window: not measurable, as for the other overhead rows. */
    static final double TARGET_AFTER_LOSS_PERCENT = OverheadBench.TARGET_LOSS_PERCENT;
    /** A flagged line must cost at least this factor, else the flag would not be worth a fix. */
    static final double TARGET_TWIN_SPEEDUP = 1.2;

    private static final String ALIGN_TO_LINES = "-XX:ObjectAlignmentInBytes=64";
    /** How long the window rows measure, after a warm-up run: three of the window's 4 s burst periods. */
    static final double STEADY_SECONDS = 12;

    /**
     * A flagged variant and a twin.
     *
     * @param fix whether the twin applies the fix the probe names for the flagged variant; a twin
     *            that does not (padding an exchange) is measured to show the advice holds, with no target
     */
    private record Pair(String kernel, String flagged, String twin, boolean fix, String alignment) {
        Pair(final String kernel, final String flagged, final String twin, final boolean fix) {
            this(kernel, flagged, twin, fix, ALIGN_TO_LINES);
        }
    }

    private static final List<Pair> PAIRS = List.of(
        new Pair("false-sharing", "same-object", "padded", true),
        new Pair("false-sharing", "static-fields", "padded", true),
        new Pair("lazy-set", "catch-up-shared", "catch-up-padded", true),
        // an exchange: the probe's fix is to cache the other side's index, then pad
        new Pair("spsc", "power-of-two", "cached", true),
        // an exchange the probe says padding alone will not help: measured without a target
        new Pair("spsc", "power-of-two", "padded", false),
        new Pair("lazy-set", "ping-pong-shared", "ping-pong-padded", false),
        // 64 versus 128 bytes apart, objects on 128-byte boundaries so that the 64 are always the two lines of one pair:
        // what the adjacent-line prefetcher costs, the basis of the probe's weight for its prefetch-pair notes
        new Pair("false-sharing", "adjacent-lines", "padded", false, "-XX:ObjectAlignmentInBytes=128"),
        new Pair("false-sharing", "same-object", "adjacent-lines", false, "-XX:ObjectAlignmentInBytes=128"));

    private static final OverheadBench.Load INSTRUMENTED = new OverheadBench.Load("CPU-bound", "false-sharing", "padded");

    private FalseSharingBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Row> rows = new ArrayList<>();
        for (final Pair pair : PAIRS) {
            final List<Double> speedups = new ArrayList<>();
            for (int round = 0; round < setup.rounds(); round++) {
                final double flagged = throughput(setup, List.of(pair.alignment()), pair.kernel(), pair.flagged());
                final double twin = throughput(setup, List.of(pair.alignment()), pair.kernel(), pair.twin());
                speedups.add(twin / flagged);
            }
            final Row row = Row.of("false sharing: " + pair.twin() + (pair.fix() ? " (the probe's fix)" : " (not the probe's fix)")
                + " over " + pair.kernel() + " " + pair.flagged(), Config.OFF.label + ", " + pair.alignment(), "x", Stats.of(speedups));
            rows.add(pair.fix() ? row.atLeast(TARGET_TWIN_SPEEDUP) : row);
        }
        final List<Config> configs = List.of(Config.OFF, Config.FALSESHARING_WOVEN, Config.FALSESHARING_WINDOW, Config.FALSESHARING_AFTER);
        final Map<Config, List<Double>> throughput = Alternation.run(setup.rounds(), configs, config ->
            steadyThroughput(setup, config.jvmArgs(setup, 0), INSTRUMENTED.kernel(), INSTRUMENTED.variant()));
        final String figure = "throughput lost: " + INSTRUMENTED.kind() + " (" + INSTRUMENTED.kernel() + " " + INSTRUMENTED.variant()
            + "), " + (int) STEADY_SECONDS + " s after a warm-up run";
        rows.add(Row.of(figure, Config.FALSESHARING_WINDOW.label, "%", lost(throughput, Config.FALSESHARING_WINDOW))
            .atMost(TARGET_WINDOW_LOSS_PERCENT));
        rows.add(Row.of(figure, Config.FALSESHARING_AFTER.label, "%", lost(throughput, Config.FALSESHARING_AFTER))
            .atMost(TARGET_AFTER_LOSS_PERCENT));
        rows.add(Row.of(figure, Config.FALSESHARING_WOVEN.label, "%", lost(throughput, Config.FALSESHARING_WOVEN))
            .atMost(TARGET_AFTER_LOSS_PERCENT));
        final Map<Config, List<Double>> wall = Alternation.run(setup.rounds(), List.of(Config.OFF, Config.FALSESHARING), config ->
            Jvm.run(setup.workDir(), config.jvmArgs(setup, 0),
                List.of("-cp", setup.benchJar().toString(), Hello.class.getName()), 60).wallNanos() / 1e6);
        rows.add(Row.of("startup: time added", Config.FALSESHARING.label, "ms",
            Stats.of(Alternation.paired(wall.get(Config.FALSESHARING), wall.get(Config.OFF), (with, without) -> with - without))));
        return rows;
    }

    private static Stats lost(final Map<Config, List<Double>> throughput, final Config config) {
        return Stats.of(Alternation.paired(throughput.get(config), throughput.get(Config.OFF),
            (with, without) -> 100 * (1 - with / without)));
    }

    /**
     * The throughput of a variant over at least {@value #STEADY_SECONDS} s after one warm-up run,
     * in one JVM: the window counts in bursts every few seconds, each costing most in the switches
     * around it, so a single short run holds one switch or none as its phase falls; a run this
     * long holds them as often as they come.
     */
    private static double steadyThroughput(final Setup setup, final List<String> jvmArgs, final String kernel,
                                           final String variant) throws Exception {
        final int measured = (int) Math.ceil(STEADY_SECONDS / setup.seconds());
        final String runs = String.join(",", Collections.nCopies(measured + 1, kernel + ":" + variant));
        final List<String> main = List.of("-jar", setup.examplesJar().toString(), runs, "--seconds", Double.toString(setup.seconds()));
        final String out = Jvm.run(setup.workDir(), jvmArgs, main, (long) ((measured + 1) * setup.seconds()) + 60).out();
        final List<Double> rates = Jvm.fields(out, "ops_per_sec");
        if (rates.size() != measured + 1) {
            throw new IllegalStateException("expected " + (measured + 1) + " runs, got " + rates.size() + ": " + out);
        }
        return rates.subList(1, rates.size()).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    }

    /** The warm (second) run's throughput of a variant run twice in one JVM. */
    private static double throughput(final Setup setup, final List<String> jvmArgs, final String kernel, final String variant)
        throws Exception {
        final String twice = kernel + ":" + variant + "," + kernel + ":" + variant;
        final List<String> args = new ArrayList<>(jvmArgs);
        final List<String> main = List.of("-jar", setup.examplesJar().toString(), twice, "--seconds", Double.toString(setup.seconds()));
        return Jvm.field(Jvm.run(setup.workDir(), args, main, 2 * (long) setup.seconds() + 60).out(), "ops_per_sec", true);
    }
}
