package io.mech.agent.runtime;

import io.mech.hiccup.ControlStalls;
import io.mech.hiccup.HiccupRecorder;
import io.mech.hiccup.cause.OwnOperations;
import io.mech.probes.profiler.TtspCulprits;
import java.util.function.Supplier;

/**
 * What a part offers the parts that start after it, beyond trigger sources
 * ({@link Part#triggers}): each kind in a typed slot, so that a dependency between parts is
 * declared here and never found by testing a part's class. A new kind is one slot.
 *
 * <p>Threads: the offering part sets its slot on the thread that starts it ({@code mech-start},
 * or the host's thread before main); a consumer reads it as it starts, on {@code mech-start}
 * after the offer, or later on the report thread. The slots are volatile, so a read after the
 * offer sees it whole.
 */
public final class Offers {

    /** mech's own VM operations, timed where its instrumentation asks for them; mech's own offer, there from the start. */
    private final OwnOperations ownOperations = new OwnOperations();
    /** Requests for mech's JFR stream when it did not open after the first second; mech's own offer, there from the start. */
    private final JfrDemand jfrDemand = new JfrDemand();
    private volatile HiccupRecorder recorder;
    private volatile ControlStalls controlStalls;
    private volatile Supplier<TtspCulprits> ttspCulprits;
    private volatile boolean ttspCulpritsWanted;
    /** When the culprits were offered, epoch milliseconds; Long.MAX_VALUE before. */
    private volatile long ttspSampledSince = Long.MAX_VALUE;

    /** @return mech's own VM operations: timed by {@link TimedInstrumentation}, read by the causes */
    public OwnOperations ownOperations() {
        return ownOperations;
    }

    /** @return where a part asks for mech's JFR stream, which it states its own contract for */
    public JfrDemand jfrDemand() {
        return jfrDemand;
    }

    /**
     * Offered by the hiccup part, under -javaagent before main with its meter alone (its log
     * follows when the part starts): the recorder whose stalls the causes attribute.
     */
    public void recorder(final HiccupRecorder offered) {
        recorder = offered;
    }

    /** @return the hiccup recorder; null when it does not run, or has not started yet */
    public HiccupRecorder recorder() {
        return recorder;
    }

    /** Offered by the hiccup part when its control JVM runs: the stalls the control JVM saw too. */
    public void controlStalls(final ControlStalls offered) {
        controlStalls = offered;
    }

    /** @return the control JVM's stalls; null when it does not run */
    public ControlStalls controlStalls() {
        return controlStalls;
    }

    /** Asked by the causes part, which names the methods that held safepoints up when the profiler samples them. */
    public void wantTtspCulprits() {
        ttspCulpritsWanted = true;
    }

    /** @return whether a part reads the time-to-safepoint culprits: the profiler samples them only then */
    public boolean ttspCulpritsWanted() {
        return ttspCulpritsWanted;
    }

    /** Offered by the profiler when it samples safepoint synchronisation: the methods found running in it. */
    public void ttspCulprits(final Supplier<TtspCulprits> offered) {
        ttspCulprits = offered;
        ttspSampledSince = System.currentTimeMillis();
    }

    /** @return when the time-to-safepoint culprits began to be sampled, epoch milliseconds; Long.MAX_VALUE when they are not */
    public long ttspSampledSince() {
        return ttspSampledSince;
    }

    /** @return the time-to-safepoint culprits so far; {@link TtspCulprits#NONE} when nothing samples them */
    public TtspCulprits ttspCulprits() {
        final Supplier<TtspCulprits> offered = ttspCulprits;
        return offered == null ? TtspCulprits.NONE : offered.get();
    }
}
