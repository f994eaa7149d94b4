package io.mech.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host's stall time put down to one cause.
 *
 * @param cause        gc, safepoint, ttsp, mech, throttled, runqueue, steal, paging, frozen, os or unknown
 * @param nanos        the length of the stalls this cause covers most of
 * @param stalls       how many those are
 * @param longest      the longest of them
 * @param details      how many stalls each detail (collector, VM operation, OS finding) explains
 * @param culprits     for ttsp with the profiler on, the methods sampled while safepoints waited,
 *                     most samples first; empty otherwise
 * @param culpritSamples every sample taken on a thread a safepoint waited for, which the
 *                     culprits' shares are of
 * @param culpritNote  why no culprit could be sampled, or empty
 */
public record CauseSummary(String cause, long nanos, long stalls, long longest, Map<String, Long> details,
                           List<Culprit> culprits, long culpritSamples, String culpritNote) {

    /**
     * A method that was running while a safepoint waited for it.
     *
     * @param method  class.method of the topmost application frame
     * @param in      the frame above it (the JDK method or JVM stub it was in), or empty
     * @param samples samples taken in it
     * @param share   its share of every sample taken on a thread the safepoint waited for, 0 to 1
     */
    public record Culprit(String method, String in, long samples, double share) {
    }

    /** Copies the details, keeping their order, and the culprits. */
    public CauseSummary {
        details = new LinkedHashMap<>(details);
        culprits = List.copyOf(culprits);
    }

    /** A cause without culprits. */
    public CauseSummary(final String cause, final long nanos, final long stalls, final long longest, final Map<String, Long> details) {
        this(cause, nanos, stalls, longest, details, List.of(), 0, "");
    }
}
