package io.mech.agent;

import java.util.function.Consumer;

/** mech's only voice on the host's stderr: one line, prefixed, never throwing. */
final class Console {

    /** {@link #warn} as a sink, made without a lambda so that no lambda is bootstrapped at start-up. */
    static final Consumer<String> WARNINGS = new Consumer<>() {
        @Override
        public void accept(final String message) {
            warn(message);
        }
    };

    private Console() {
    }

    /** Prints one warning line. */
    static void warn(final String message) {
        try {
            System.err.println("mech: " + message);
        } catch (final RuntimeException ignored) {
            // A host that closed or replaced stderr must not be hurt by a warning.
        }
    }
}
