package io.mech.probes;

/**
 * Tells the JDK's classes from the application's, by name. The first frame outside the JDK is
 * where the application's code stands on a stack: the call site of a lock, the method that kept a
 * safepoint waiting.
 */
public final class JdkCode {

    private JdkCode() {
    }

    /**
     * @param className a binary name, such as {@code java.lang.System}
     * @return whether the class is the JDK's
     */
    public static boolean contains(final String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
            || className.startsWith("sun.") || className.startsWith("com.sun.");
    }
}
