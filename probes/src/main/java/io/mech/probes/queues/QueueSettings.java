package io.mech.probes.queues;

import java.util.List;

/**
 * How the queue probe runs.
 *
 * @param include     package prefixes whose classes implementing java.util.Queue are found and
 *                    counted (option {@code probes.queues.include}); may be empty
 * @param sampleNanos time between samples (option {@code probes.queues.sample}), 50 ms to 60 s
 * @param alert       utilisation of a bounded queue that counts as full, in (0, 1] (option {@code probes.queues.alert})
 * @param deep        depth of an unbounded queue that counts as deep (option {@code probes.queues.deep})
 */
public record QueueSettings(List<String> include, long sampleNanos, double alert, long deep) {

    /** Samples in a row a condition must hold before it alerts. */
    public static final int RUNS = 3;
    /** Shortest sample period: the ring for a 10 s window stays at most 201 samples. */
    public static final long MIN_SAMPLE_NANOS = 50_000_000L;
    /** Longest sample period. */
    public static final long MAX_SAMPLE_NANOS = 60_000_000_000L;

    /** Validates and copies. */
    public QueueSettings {
        include = List.copyOf(include);
        for (final String prefix : include) {
            if (!prefix.matches("[\\p{javaJavaIdentifierPart}.$]+")) {
                throw new IllegalArgumentException("option 'probes.queues.include': '" + prefix + "' is not a package name");
            }
        }
        if (sampleNanos < MIN_SAMPLE_NANOS || sampleNanos > MAX_SAMPLE_NANOS) {
            throw new IllegalArgumentException("option 'probes.queues.sample' must be from 50ms to 60s, got " + sampleNanos / 1e6 + " ms");
        }
        if (!(alert > 0 && alert <= 1)) {
            throw new IllegalArgumentException("option 'probes.queues.alert' must be above 0% and at most 100%, got " + alert * 100 + "%");
        }
        if (deep < 1) {
            throw new IllegalArgumentException("option 'probes.queues.deep' must be at least 1, got " + deep);
        }
    }

    /** @return the prefixes in internal form, each ending with a slash */
    List<String> internalPrefixes() {
        return binaryPrefixes().stream().map(p -> p.replace('.', '/')).toList();
    }

    /** @return the included packages as prefixes of binary class names, each ending in a dot */
    List<String> binaryPrefixes() {
        return include.stream().map(p -> p.endsWith(".") ? p : p + ".").toList();
    }
}
