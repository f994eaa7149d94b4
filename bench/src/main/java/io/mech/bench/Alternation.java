package io.mech.bench;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Runs every configuration once per round, in turn (A B C A B C ...), so that drift in the
 * machine's load falls on all of them alike.
 */
final class Alternation {

    /** One measurement of one configuration. */
    @FunctionalInterface
    interface Measure {
        double run(Config config) throws Exception;
    }

    private Alternation() {
    }

    /** The samples per configuration, in round order. */
    static Map<Config, List<Double>> run(final int rounds, final List<Config> configs, final Measure measure) throws Exception {
        final Map<Config, List<Double>> samples = new EnumMap<>(Config.class);
        for (final Config config : configs) {
            samples.put(config, new ArrayList<>(rounds));
        }
        for (int round = 0; round < rounds; round++) {
            for (final Config config : configs) {
                samples.get(config).add(measure.run(config));
            }
        }
        return samples;
    }

    /** Round by round, {@code f(sample, baseline sample)}: differences or ratios taken side by side. */
    static List<Double> paired(final List<Double> samples, final List<Double> baseline, final Pairing f) {
        final List<Double> paired = new ArrayList<>(samples.size());
        for (int i = 0; i < samples.size(); i++) {
            paired.add(f.apply(samples.get(i), baseline.get(i)));
        }
        return paired;
    }

    /** How a sample is set against its round's baseline. */
    @FunctionalInterface
    interface Pairing {
        double apply(double sample, double baseline);
    }
}
