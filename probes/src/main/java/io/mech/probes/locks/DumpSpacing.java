package io.mech.probes.locks;

/**
 * Spaces the lock sampler's thread dumps so that the stops they cost the host add up to at most
 * 1/{@value #RATIO} of its time: a dump stops every thread at a safepoint and walks its stack,
 * which on a host of thousands of threads takes milliseconds, and a fixed period would then stop
 * it for a tenth of the time. A dump that took d is followed by none for {@value #RATIO} d.
 *
 * <p>Used by the sampler's thread only.
 */
final class DumpSpacing {

    /** The host's time per unit of stopping it. */
    static final long RATIO = 100;

    private final long periodNanos;
    private boolean dumped;
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
        return !dumped || now - notBefore >= 0;
    }

    /**
     * Notes a dump.
     *
     * @param start when it began
     * @param end   when it returned
     * @return the time this sample stands for: since the last dump began, or one period for the first
     */
    long dumped(final long start, final long end) {
        final long stands = dumped ? start - lastStart : periodNanos;
        dumped = true;
        lastStart = start;
        notBefore = start + RATIO * Math.max(0, end - start);
        return stands;
    }
}
