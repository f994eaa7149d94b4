package io.mech.report;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The host's stall time put down to one cause.
 *
 * @param cause   gc, safepoint, ttsp, mech or os
 * @param nanos   stall time this cause covers
 * @param stalls  stalls mainly of this cause
 * @param longest the longest of them
 * @param details how many stalls each detail (collector, VM operation, OS finding) explains
 */
public record CauseSummary(String cause, long nanos, long stalls, long longest, Map<String, Long> details) {

    /** Copies the details, keeping their order. */
    public CauseSummary {
        details = new LinkedHashMap<>(details);
    }
}
