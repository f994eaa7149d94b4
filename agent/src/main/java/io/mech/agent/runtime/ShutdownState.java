package io.mech.agent.runtime;

/**
 * Whether the JVM's shutdown has begun, asked by mech's threads before anything that must not
 * start once it has (JFR above all: see {@link JfrStream}).
 *
 * <p>Thread contract: any thread may ask, at any time; {@link #begin} is called by mech's
 * shutdown hook. The flag is volatile; the probe behind it is the JVM's own answer.
 */
final class ShutdownState {

    private static volatile boolean begun;

    private ShutdownState() {
    }

    /** Marks the shutdown as begun: mech's hook runs. */
    static void begin() {
        begun = true;
    }

    /** True once mech's hook has marked the shutdown: the flag alone, which allocates nothing. */
    static boolean marked() {
        return begun;
    }

    /**
     * True once the JVM is shutting down, as it is when a short-lived host exits while mech still
     * starts. The JVM refuses a new shutdown hook from then on, even before mech's own hook runs.
     */
    static boolean begun() {
        if (begun) {
            return true;
        }
        final Thread probe = new Thread("mech-shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (final IllegalStateException e) {
            begun = true;
            return true;
        }
    }
}
