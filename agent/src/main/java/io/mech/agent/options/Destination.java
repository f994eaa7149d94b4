package io.mech.agent.options;

/**
 * Where the report goes ({@link Option#REPORT}): standard error, nowhere, or a file. Immutable.
 *
 * @param to   which of the three
 * @param path the file's path, for {@link To#FILE}; null otherwise
 */
public record Destination(To to, String path) {

    /** What the option takes, as a warning and the options table say it. */
    static final String EXPECTED = "stderr, off, or a file path";

    /** Which of the three. */
    public enum To {
        /** The host's standard error. */
        STDERR,
        /** Nowhere: no text report. */
        OFF,
        /** A file. */
        FILE
    }

    /** Reads {@code stderr} or {@code off} in any case, and anything else as a path; empty is off. */
    static Destination parse(final String text) {
        if (text.equalsIgnoreCase("stderr")) {
            return new Destination(To.STDERR, null);
        }
        if (text.isEmpty() || text.equalsIgnoreCase("off")) {
            return new Destination(To.OFF, null);
        }
        return new Destination(To.FILE, text);
    }
}
