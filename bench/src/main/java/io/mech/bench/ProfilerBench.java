package io.mech.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the profiler costs the host in each mode: continuous mode's always-on profile (a
 * wall-clock sample every 100 ms and lock waits, segments rotated every 5 s, the JDK's recorder
 * synchronised in), and one capture taken on demand by {@code mech profile} (attach, library load,
 * sampling, JFR and flame graph written), which is what a trigger-mode capture does minus the
 * attach. Then trigger mode's one always-on cost: the time-to-safepoint session, which samples
 * only while a safepoint waits for threads, beside the causes it serves. No target: the issue
 * asks for the figures to be stated.
 */
final class ProfilerBench {

    private static final List<String> KERNELS = List.of("locks:synchronized-single", "false-sharing:padded");

    private ProfilerBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Row> rows = new ArrayList<>();
        final List<Double> captureWallBeyondSampling = new ArrayList<>();
        // The kernel runs three times in one JVM and the second, warm run counts: a capture that
        // starts in the first run and lasts two runs spans the second and ends before the JVM does.
        final int captureSeconds = (int) Math.ceil(2 * setup.seconds());
        for (final String kernel : KERNELS) {
            final List<String> command = List.of("-jar", setup.examplesJar().toString(), kernel + "," + kernel + "," + kernel,
                "--seconds", Double.toString(setup.seconds()));
            final Map<Config, List<Double>> throughput = Alternation.run(setup.rounds(),
                List.of(Config.HICCUP, Config.PROFILER_CONTINUOUS, Config.PROFILER_CAPTURE, Config.CAUSES, Config.PROFILER_TTSP), config -> {
                    final Jvm.Started host = Jvm.start(setup.workDir(), config.jvmArgs(setup, 0), command);
                    if (config == Config.PROFILER_CAPTURE) {
                        captureWallBeyondSampling.add(captureWallMillis(setup, host, captureSeconds) - captureSeconds * 1000.0);
                    }
                    return Jvm.fields(Jvm.await(host, 3 * (long) setup.seconds() + 60).out(), "ops_per_sec").get(1);
                });
            for (final Config config : List.of(Config.PROFILER_CONTINUOUS, Config.PROFILER_CAPTURE)) {
                rows.add(Row.of("profiler: throughput lost (" + kernel + ")", config.label + " vs " + Config.HICCUP.label, "%",
                    Stats.of(Alternation.paired(throughput.get(config), throughput.get(Config.HICCUP),
                        (with, without) -> 100 * (1 - with / without)))));
            }
            rows.add(Row.of("profiler: throughput lost (" + kernel + ")", Config.PROFILER_TTSP.label + " vs " + Config.CAUSES.label, "%",
                Stats.of(Alternation.paired(throughput.get(Config.PROFILER_TTSP), throughput.get(Config.CAUSES),
                    (with, without) -> 100 * (1 - with / without)))));
        }
        rows.add(Row.of("profiler: one capture's wall time beyond its " + captureSeconds + " s of sampling",
            "mech profile <pid> --duration " + captureSeconds + "s", "ms", Stats.of(captureWallBeyondSampling)));
        return rows;
    }

    /** Runs {@code mech profile} against a started host, once its attach listener can answer; its wall time. */
    private static double captureWallMillis(final Setup setup, final Jvm.Started host, final int seconds) throws Exception {
        Thread.sleep(500);
        final long start = System.nanoTime();
        final Jvm.Run profile = Jvm.run(setup.workDir(), List.of(), List.of("-jar", setup.mechJar().toString(), "profile",
            Long.toString(host.process().pid()), "--duration", seconds + "s", "--dir", setup.workDir().resolve("captures").toString()),
            seconds + 60L);
        if (!profile.out().contains(".html")) {
            throw new IllegalStateException("mech profile wrote no flame graph: " + profile.out());
        }
        return (System.nanoTime() - start) / 1e6;
    }
}
