package io.mech.exporter.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The start of a back-pressure episode on one queue or executor. */
@Name("mech.QueueBackPressure")
@Label("Queue Back Pressure")
@Category("mech")
@Description("A bounded queue stayed at or above the alert utilisation, or an unbounded one stayed deep or kept growing")
@StackTrace(false)
public final class QueueBackPressureEvent extends jdk.jfr.Event {

    /** queue or executor. */
    @Label("Kind")
    public String kind;

    /** The queue's class, or the executor's. */
    @Label("Type")
    public String type;

    /** The first application frame that created it. */
    @Label("Site")
    public String site;

    /** full, deep or growing. */
    @Label("Reason")
    public String reason;

    /** Elements (queued tasks) at the sample that raised it. */
    @Label("Depth")
    public long depth;

    /** The bound; -1 for none, -2 when the queue's contract gives none mech can read. */
    @Label("Capacity")
    public long capacity;

    /** Depth over capacity, at most 1; NaN when unbounded or the bound is unknown. */
    @Label("Utilization")
    public double utilization;

    /** Depth change per second over the smoothing window. */
    @Label("Growth Per Second")
    public double growthPerSecond;

    /** Dequeues per second over the smoothing window; NaN when not counted. */
    @Label("Dequeue Rate")
    public double dequeueRate;
}
