package io.mech.agent.runtime;

import java.util.function.Consumer;

/**
 * mech's only voice on the host's stderr: one line, prefixed, never throwing.
 *
 * <p>Every line is also kept, up to {@link #KEPT_CHARS}, in the system property
 * {@link #WARNINGS_PROPERTY}, so that {@code mech attach}, whose own stderr is not the target's,
 * can tell its user what the target said. Thread contract: any thread may warn; the kept lines
 * are appended under this class's monitor, which nothing else takes.
 */
public final class Console {

    /** The system property holding mech's warnings in this JVM, one a line. */
    public static final String WARNINGS_PROPERTY = "io.mech.warnings";

    /** Enough for every warning a bad option line and a failed start can give, bounded all the same. */
    private static final int KEPT_CHARS = 8_192;

    /** {@link #warn} as a sink, made without a lambda so that no lambda is bootstrapped at start-up. */
    public static final Consumer<String> WARNINGS = new Consumer<>() {
        @Override
        public void accept(final String message) {
            warn(message);
        }
    };

    private Console() {
    }

    /** Prints one warning line. */
    public static void warn(final String message) {
        try {
            System.err.println("mech: " + message);
        } catch (final RuntimeException ignored) {
            // A host that closed or replaced stderr must not be hurt by a warning.
        }
        keep(message);
    }

    private static synchronized void keep(final String message) {
        try {
            final String kept = System.getProperty(WARNINGS_PROPERTY, "");
            if (kept.length() + message.length() < KEPT_CHARS) {
                System.setProperty(WARNINGS_PROPERTY, kept.isEmpty() ? message : kept + "\n" + message);
            }
        } catch (final RuntimeException ignored) {
            // A security manager that refuses properties costs the attacher the lines, nothing more.
        }
    }
}
