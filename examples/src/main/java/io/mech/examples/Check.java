package io.mech.examples;

/**
 * Self-checks every kernel runs on its own result. A failed check throws
 * {@link CheckFailedException}, which the runner turns into a non-zero exit.
 */
public final class Check {

    /**
     * Test hook: when set, every check fails, proving each kernel reaches one. Package-private
     * on purpose so that no command-line user can switch it on.
     */
    static volatile boolean injectWrongAnswer;

    private Check() {
    }

    /**
     * @param what     what was counted, for the message
     * @param expected the right answer
     * @param actual   what the kernel computed
     */
    public static void equal(final String what, final long expected, final long actual) {
        final long observed = injectWrongAnswer ? actual + 1 : actual;
        if (expected != observed) {
            throw new CheckFailedException(what + ": expected " + expected + " but was " + observed);
        }
    }

    /**
     * @param condition what must hold
     * @param message   what went wrong if it does not
     */
    public static void that(final boolean condition, final String message) {
        if (!condition || injectWrongAnswer) {
            throw new CheckFailedException(message);
        }
    }
}
