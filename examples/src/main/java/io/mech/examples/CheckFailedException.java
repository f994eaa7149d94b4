package io.mech.examples;

/** A kernel computed a wrong answer: the measurement that came with it means nothing. */
public final class CheckFailedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what was expected and what was found */
    public CheckFailedException(final String message) {
        super(message);
    }
}
