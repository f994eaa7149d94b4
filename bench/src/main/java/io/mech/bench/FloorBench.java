package io.mech.bench;

import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The hiccup floor: what each tool records of an idle JVM, mech's recorder alone and jHiccup,
 * both sampling every millisecond and logging every second, each log read with HdrHistogram.
 * Both start recording in premain; the first second (the JVM's start-up) is left out and the
 * next {@value #INTERVALS} intervals of each log are read, so both cover the same seconds and
 * neither covers the host's exit (jHiccup never logs its last, partial interval). No target:
 * the rows show whether both tools see the same floor.
 */
final class FloorBench {

    /** The intervals of one second read from each log, after the first. */
    static final int INTERVALS = 10;

    /** The host idles beyond the intervals read: for the first interval, and for intervals a little longer than a second. */
    private static final long IDLE_MILLIS = (INTERVALS + 3) * 1_000L;

    private static final double[] PERCENTILES = {50, 99, 100};
    private static final List<String> NAMES = List.of("p50", "p99", "max");

    private FloorBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final List<Config> configs = new ArrayList<>(List.of(Config.HICCUP_EVERY_SECOND));
        if (setup.jHiccup().isPresent()) {
            configs.add(0, Config.JHICCUP_EVERY_SECOND);
        }
        final List<String> host = List.of("-cp", setup.benchJar().toString(), IdleHost.class.getName(), Long.toString(IDLE_MILLIS));
        final Map<Config, List<double[]>> millis = new EnumMap<>(Config.class);
        Alternation.run(setup.rounds(), configs, config -> {
            final Jvm.Started started = Jvm.start(setup.workDir(), config.jvmArgs(setup, 0), host);
            Jvm.await(started, IDLE_MILLIS / 1_000 + 60);
            final Histogram idle = idleSeconds(config.hiccupLog(setup.workDir(), started.process().pid()));
            final double[] values = new double[PERCENTILES.length];
            for (int i = 0; i < values.length; i++) {
                values[i] = idle.getValueAtPercentile(PERCENTILES[i]) / 1e6;
            }
            millis.computeIfAbsent(config, c -> new ArrayList<>()).add(values);
            return 0;
        });
        final List<Row> rows = new ArrayList<>();
        for (int i = 0; i < NAMES.size(); i++) {
            for (final Config config : configs) {
                final List<Double> samples = new ArrayList<>();
                for (final double[] values : millis.get(config)) {
                    samples.add(values[i]);
                }
                rows.add(Row.of("hiccup floor: " + NAMES.get(i) + " of an idle JVM's hiccups, " + INTERVALS + " s at 1 ms",
                    config.label, "ms", Stats.of(samples)));
            }
        }
        return rows;
    }

    /** The untagged intervals 2 to {@value #INTERVALS} + 1 of a hiccup log, added up. */
    static Histogram idleSeconds(final Path log) throws IOException {
        final Histogram idle = new Histogram(3);
        int read = 0;
        try (HistogramLogReader reader = new HistogramLogReader(log.toFile())) {
            EncodableHistogram interval;
            while (read <= INTERVALS && (interval = reader.nextIntervalHistogram()) != null) {
                if (interval.getTag() == null) {
                    if (read > 0) {
                        idle.add((Histogram) interval);
                    }
                    read++;
                }
            }
        }
        if (read <= INTERVALS) {
            throw new IOException(log + " holds " + read + " intervals; the floor reads " + (INTERVALS + 1));
        }
        return idle;
    }
}
