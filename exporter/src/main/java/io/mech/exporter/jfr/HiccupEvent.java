package io.mech.exporter.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;
import jdk.jfr.Timestamp;

/**
 * One stall of the JVM and its cause. It is committed seconds after the stall, once JFR's own
 * GC and safepoint events have arrived, so the stall's own time is in {@code stallStart} and
 * {@code stallDuration}.
 */
@Name("mech.Hiccup")
@Label("Hiccup")
@Category("mech")
@Description("A stall of the JVM seen by mech's hiccup recorder, with its cause")
@StackTrace(false)
public final class HiccupEvent extends jdk.jfr.Event {

    /** When the stall began. */
    @Label("Stall Start")
    @Timestamp(Timestamp.MILLISECONDS_SINCE_EPOCH)
    public long stallStart;

    /** How long the JVM stood still. */
    @Label("Stall Duration")
    @Timespan(Timespan.NANOSECONDS)
    public long stallDuration;

    /** gc, safepoint, ttsp, mech, throttled, runqueue, steal, paging, frozen, os or unknown. */
    @Label("Cause")
    public String cause;

    /** The collector and GC cause, the VM operation, or what the OS did. */
    @Label("Detail")
    public String detail;
}
