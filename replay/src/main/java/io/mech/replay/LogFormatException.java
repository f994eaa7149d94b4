package io.mech.replay;

/**
 * An input log is damaged: the message reads {@code file:line: what is wrong}, ready for the user.
 */
final class LogFormatException extends Exception {

    private static final long serialVersionUID = 1L;

    LogFormatException(final String source, final long line, final String what) {
        super(source + ":" + line + ": " + what, null, false, false);
    }

    /** What is wrong with a line, before the reader adds where. */
    static final class Problem extends Exception {

        private static final long serialVersionUID = 1L;

        Problem(final String what) {
            super(what, null, false, false);
        }
    }
}
