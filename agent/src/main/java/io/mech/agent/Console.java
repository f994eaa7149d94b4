package io.mech.agent;

/** mech's only voice on the host's stderr: one line, prefixed, never throwing. */
final class Console {

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
