package io.mech.probes;

/**
 * Where the probes' own VM operations that stop the JVM (a thread dump, a deadlock search) are
 * timed as mech's own, so that the stops they cause are told as mech's: the agent sets one timer
 * as it starts ({@link #timeWith}); until then, and in the probes' own tests, calls are untimed.
 *
 * <p>Thread contract: the agent's start sets the timer, published through a volatile field; any
 * probe thread then calls {@link #begin} and runs what it returns once its call has returned.
 */
public final class VmOperations {

    /** Times one call. */
    @FunctionalInterface
    public interface Timer {
        /**
         * @param name the VM operation asked for, as HotSpot names it ({@code ThreadDump})
         * @return what to run once the call has returned
         */
        Runnable begin(String name);
    }

    /** A class, not a lambda: this class is made in premain, where a lambda costs the host's start-up. */
    private static final Runnable UNTIMED = new Runnable() {
        @Override
        public void run() {
        }
    };
    private static volatile Timer timer;

    private VmOperations() {
    }

    /** @param every the timer of every probe's VM operations from now on */
    public static void timeWith(final Timer every) {
        timer = every;
    }

    /**
     * @param name the VM operation about to be asked for, as HotSpot names it
     * @return what to run once the call has returned
     */
    public static Runnable begin(final String name) {
        final Timer now = timer;
        return now == null ? UNTIMED : now.begin(name);
    }
}
