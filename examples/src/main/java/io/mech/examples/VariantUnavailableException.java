package io.mech.examples;

/** This JVM cannot run a variant so that its declared ground truth holds, e.g. a flag is missing. */
public final class VariantUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what the variant needs */
    public VariantUnavailableException(final String message) {
        super(message);
    }
}
