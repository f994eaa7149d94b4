package io.mech.examples;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one run of a variant did.
 *
 * @param threads worker threads that ran
 * @param ops     operations completed (the kernel's unit, e.g. increments or items transferred)
 * @param nanos   wall time of the measured phase
 * @param extras  further {@code key=value} pairs for the result line, in print order; immutable
 */
public record Measurement(int threads, long ops, long nanos, Map<String, String> extras) {

    /** Validates and copies. */
    public Measurement {
        if (nanos <= 0) {
            throw new IllegalArgumentException("nanos must be positive, got " + nanos);
        }
        extras = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(extras)));
    }

    /**
     * @param threads worker threads that ran
     * @param ops     operations completed
     * @param nanos   wall time of the measured phase
     * @return a measurement with no extras
     */
    public static Measurement of(final int threads, final long ops, final long nanos) {
        return new Measurement(threads, ops, nanos, Map.of());
    }

    /**
     * @param key   a key without spaces or '='
     * @param value a value without spaces
     * @return a copy with one more extra
     */
    public Measurement with(final String key, final Object value) {
        final Map<String, String> copy = new LinkedHashMap<>(extras);
        copy.put(key, String.valueOf(value));
        return new Measurement(threads, ops, nanos, copy);
    }

    /** @return operations per second */
    public double opsPerSecond() {
        return ops * 1e9 / nanos;
    }
}
