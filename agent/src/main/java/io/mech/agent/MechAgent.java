package io.mech.agent;

import io.mech.agent.profiler.OnDemandProfile;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.Mech;
import java.lang.instrument.Instrumentation;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The agent's entry points. Both go through one method that never throws: whatever goes wrong
 * in mech, the host application runs on.
 */
public final class MechAgent {

    private static final AtomicBoolean LOADED = new AtomicBoolean();

    private MechAgent() {
    }

    /**
     * Called by the JVM for {@code -javaagent:mech.jar[=options]}.
     *
     * @param args            the options, {@code key=value} pairs separated by commas
     * @param instrumentation the JVM's instrumentation
     */
    public static void premain(final String args, final Instrumentation instrumentation) {
        load(args, false, instrumentation);
    }

    /**
     * Called by the JVM when mech is attached to a running process, by {@code mech attach} or,
     * for one capture, by {@code mech profile}.
     *
     * @param args            the options, {@code key=value} pairs separated by commas, or a
     *                        capture request from {@code mech profile}
     * @param instrumentation the JVM's instrumentation
     */
    public static void agentmain(final String args, final Instrumentation instrumentation) {
        load(args, true, instrumentation);
    }

    private static void load(final String args, final boolean attached, final Instrumentation instrumentation) {
        try {
            if (attached && args != null && args.startsWith(OnDemandProfile.PREFIX)) {
                // a capture for `mech profile`, not a start of mech: it may come while mech runs
                OnDemandProfile.run(args);
                return;
            }
            if (!LOADED.compareAndSet(false, true)) {
                Console.warn("already running in this JVM; the second load is ignored");
                return;
            }
            Mech.start(args, attached, instrumentation, Parts.ALL);
        } catch (final Throwable t) {
            Console.warn("not started: " + t);
        }
    }
}
