package io.mech.probes.locks;

/**
 * Spaces the lock sampler's thread dumps so that the stops they cost the host add up to at most
 * 1/{@value #RATIO} of its time: a dump stops every thread at a safepoint and walks its stack,
 * which on a host of thousands of threads takes milliseconds, and a fixed period would then stop
 * it for a tenth of the time or more. A dump's cost is taken as the shortest of the last
 * {@value #RECENT} dumps' wall times: a dump's call also counts the time mech's thread waited for
 * a core, which on a saturated machine is most of it and stops nothing, while a host that grows
 * its threads makes every dump longer. After a cost of d, the next dump waits {@value #RATIO} d.
 * The first dump is no measure: it loads and runs cold what every later dump runs compiled (on a
 * host of a dozen threads, 30 ms and more against under 1 ms), and taken as the cost it held the
 * second dump off for seconds, past the end of a 4 s host whose first dump had missed its
 * contended lock. Until {@value #RECENT} dumps after it, the sampler's period alone spaces them.
 *
 * <p>Used by the sampler's thread only.
 */
final class DumpSpacing {

    /** The host's time per unit of stopping it. */
    static final long RATIO = 100;
    /** Dumps whose shortest wall time is the cost. */
    static final int RECENT = 3;

    private final long periodNanos;
    /** The last dumps' wall times, oldest overwritten first; read once all are known. */
    private final long[] recent = new long[RECENT];
    private int next;
    /** How many dumps after the first {@link #recent} holds, up to {@value #RECENT}. */
    private int known;
    private boolean any;
    private long lastStart;
    private long notBefore;

    /** @param periodNanos how often the sampler asks; what the first sample stands for */
    DumpSpacing(final long periodNanos) {
        this.periodNanos = periodNanos;
    }

    /**
     * @param now {@link System#nanoTime()} as the sampler asks
     * @return whether a dump may start now
     */
    boolean due(final long now) {
        return !any || now - notBefore >= 0;
    }

    /**
     * Notes a dump.
     *
     * @param start when it began
     * @param end   when it returned
     * @return the time this sample stands for: since the last dump began, or one period for the first
     */
    long dumped(final long start, final long end) {
        if (!any) {
            any = true;
            lastStart = start;
            notBefore = start;
            return periodNanos;
        }
        final long stands = start - lastStart;
        recent[next] = Math.max(0, end - start);
        next = (next + 1) % RECENT;
        known = Math.min(RECENT, known + 1);
        lastStart = start;
        if (known < RECENT) {
            notBefore = start;
            return stands;
        }
        long cost = Long.MAX_VALUE;
        for (final long took : recent) {
            cost = Math.min(cost, took);
        }
        notBefore = start + RATIO * cost;
        return stands;
    }
}
