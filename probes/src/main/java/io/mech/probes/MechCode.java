package io.mech.probes;

/**
 * Tells mech's classes from the application's, by name: everything under {@code io.mech} is
 * mech's (its own packages and the libraries it relocates under {@code io.mech.shaded}) except
 * its example kernels, {@code io.mech.examples}, which are the user's code wherever mech runs
 * them. No probe weaves mech's classes, whatever package it is told to include, and a lock
 * taken or a queue made by mech's code is not the host's even on the host's thread.
 */
public final class MechCode {

    private static final String MECH = "io.mech.";
    private static final String EXAMPLES = "io.mech.examples.";

    private MechCode() {
    }

    /**
     * @param className a binary ({@code io.mech.agent.Mech}) or internal ({@code io/mech/agent/Mech}) name
     * @return whether the class is mech's own
     */
    public static boolean contains(final String className) {
        return under(className, MECH) && !under(className, EXAMPLES);
    }

    /** Whether a class name begins with a package prefix written with dots, in either separator. */
    private static boolean under(final String className, final String dottedPrefix) {
        if (className.length() < dottedPrefix.length()) {
            return false;
        }
        for (int i = 0; i < dottedPrefix.length(); i++) {
            final char expected = dottedPrefix.charAt(i);
            final char found = className.charAt(i);
            if (found != expected && !(expected == '.' && found == '/')) {
                return false;
            }
        }
        return true;
    }
}
