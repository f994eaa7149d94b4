package io.mech.probes.falsesharing;

import java.util.List;

/**
 * How the false-sharing probe runs.
 *
 * @param include      package prefixes whose code is woven and whose fields are judged, e.g.
 *                     {@code io.mech.examples} (option {@code probes.falsesharing.include}; by
 *                     default the main class's package)
 * @param delayNanos   from start-up to the window (option {@code probes.falsesharing.delay})
 * @param windowNanos  how long the counting stays switched on (option {@code probes.falsesharing.window})
 * @param everyNanos   from the start of one window to the start of the next, 0 for one window
 *                     (option {@code probes.falsesharing.every})
 */
public record FalseSharingSettings(List<String> include, long delayNanos, long windowNanos, long everyNanos) {

    /** One window. */
    public FalseSharingSettings(final List<String> include, final long delayNanos, final long windowNanos) {
        this(include, delayNanos, windowNanos, 0);
    }

    /** Validates and copies. */
    public FalseSharingSettings {
        include = List.copyOf(include);
        if (include.isEmpty()) {
            throw new IllegalArgumentException("probes.falsesharing.include must name at least one package");
        }
        for (final String prefix : include) {
            if (!prefix.matches("[\\p{javaJavaIdentifierPart}.$]+")) {
                throw new IllegalArgumentException("probes.falsesharing.include: '" + prefix + "' is not a package name");
            }
        }
        if (delayNanos < 0) {
            throw new IllegalArgumentException("probes.falsesharing.delay must be >= 0, got " + delayNanos);
        }
        if (windowNanos <= 0) {
            throw new IllegalArgumentException("probes.falsesharing.window must be > 0, got " + windowNanos);
        }
        if (everyNanos != 0 && everyNanos <= windowNanos) {
            throw new IllegalArgumentException("probes.falsesharing.every must be 0 (one window) or longer than the window");
        }
    }

    /** @return the prefixes in internal form, each ending with a slash */
    List<String> internalPrefixes() {
        return include.stream().map(p -> p.replace('.', '/') + (p.endsWith(".") ? "" : "/")).map(p -> p.replace("//", "/")).toList();
    }
}
