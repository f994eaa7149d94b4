package io.mech.exporter.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * One of the locks threads blocked on most in the last period, with its call site. Periodic:
 * JFR asks for it only while a recording enables it, so it costs nothing otherwise.
 */
@Name("mech.LockContention")
@Label("Lock Contention")
@Category("mech")
@Description("A lock that threads blocked on in the last period, among the worst mech's lock probe saw")
@StackTrace(false)
@Period("10 s")
public final class LockContentionEvent extends jdk.jfr.Event {

    /** monitor_enter, juc_lock, juc_wait, monitor_wait or pinned; juc_counted for acquisitions counted below JFR's threshold. */
    @Label("Kind")
    public String kind;

    /** The monitor's class, or the java.util.concurrent lock's. */
    @Label("Lock Class")
    public String lockClass;

    /** The first application frame, class.method:line; empty for counted acquisitions, which have none. */
    @Label("Call Site")
    public String callSite;

    /** Blocks (or contended acquisitions) in the period. */
    @Label("Blocks")
    public long blocks;

    /** Their summed duration in the period. */
    @Label("Blocked Time")
    @Timespan(Timespan.NANOSECONDS)
    public long blockedTime;

    /** The longest since mech started. */
    @Label("Longest Since Start")
    @Timespan(Timespan.NANOSECONDS)
    public long longestSinceStart;
}
