package io.mech.probes;

/**
 * Tells mech's threads, and JFR's, from the host's, by name, so that no probe reports mech's own
 * doing as the host's.
 *
 * <p>Every thread mech starts is named {@code mech-...}, and once /metrics runs mech renames the
 * JDK HTTP server's dispatcher so too; what such a thread does or creates is mech's, whatever
 * code it runs. JFR's threads are named {@code JFR ...} ({@code JFR Periodic Tasks},
 * {@code JFR Recorder Thread}, {@code JFR Shutdown Hook}, ... on JDK 17 to 25): with the lock probe
 * on, mech's own JFR stream keeps them working, and their work is JFR's bookkeeping, which the
 * host's code cannot change. A host's own periodic-event hook runs on one of them too, though, so
 * the probes treat JFR's threads as mech's only where no stack can show the application's code:
 * inflations and counted j.u.c. acquisitions, which carry no stack, are left out; a block or a
 * queue made on them counts when an application frame is on its stack.
 *
 * <p>A name costs a field load and a few byte comparisons, no set lookup and no allocation: cheap
 * enough for the lock probe's contended path. The price: a host thread named like these is taken
 * for mech's or JFR's. (The lock probe also leaves out the stackless events of the JVM's own
 * service threads, which it tells by thread group.)
 */
public final class MechThreads {

    /** How the name of every thread mech starts or renames begins. */
    public static final String MECH_PREFIX = "mech-";
    /** How the names of JFR's own threads begin. */
    public static final String JFR_PREFIX = "JFR ";

    private MechThreads() {
    }

    /** @return whether a thread of this name is mech's; false for null */
    public static boolean isMechs(final String threadName) {
        return threadName != null && threadName.startsWith(MECH_PREFIX);
    }

    /** @return whether a thread of this name is JFR's own; false for null */
    public static boolean isJfrs(final String threadName) {
        return threadName != null && threadName.startsWith(JFR_PREFIX);
    }

    /** @return whether the calling thread is mech's */
    public static boolean currentIsMechs() {
        return isMechs(Thread.currentThread().getName());
    }
}
