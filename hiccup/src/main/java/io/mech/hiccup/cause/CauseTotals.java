package io.mech.hiccup.cause;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Stall time by cause since recording began: an immutable snapshot. A cause's time, count and
 * longest describe the same stalls, those it covers the most of, so the causes' times add up to
 * the stall time attributed.
 *
 * @param nanos     the length of the stalls whose main cause it is
 * @param counts    stalls whose main cause it is
 * @param longest   the longest stall whose main cause it is
 * @param details   per cause, how many stalls each detail (collector, operation, OS finding) explains
 * @param pending   stalls seen but not yet attributed (JFR reports up to a second late)
 * @param dropped   stalls lost because the attributing thread fell behind, counted as {@link Cause#UNKNOWN} too
 * @param allocationStalls every thread's waits for memory that JFR reported (ZGC)
 * @param counters  whether HotSpot's counters are read, the tier that covers every stall
 */
public record CauseTotals(Map<Cause, Long> nanos, Map<Cause, Long> counts, Map<Cause, Long> longest,
                          Map<Cause, Map<String, Long>> details, long pending, long dropped,
                          AllocationStalls allocationStalls, boolean counters) {

    /** Copies the maps. */
    public CauseTotals {
        nanos = new EnumMap<>(nanos);
        counts = new EnumMap<>(counts);
        longest = new EnumMap<>(longest);
        final Map<Cause, Map<String, Long>> copy = new EnumMap<>(Cause.class);
        details.forEach((cause, byDetail) -> copy.put(cause, new LinkedHashMap<>(byDetail)));
        details = copy;
    }

    /** Stall time of one cause, 0 when none. */
    public long nanos(final Cause cause) {
        return nanos.getOrDefault(cause, 0L);
    }

    /** Stalls mainly of one cause, 0 when none. */
    public long count(final Cause cause) {
        return counts.getOrDefault(cause, 0L);
    }

    /** The longest stall mainly of one cause, 0 when none. */
    public long longest(final Cause cause) {
        return longest.getOrDefault(cause, 0L);
    }

    /** How many stalls each detail explains, most first. */
    public Map<String, Long> details(final Cause cause) {
        return details.getOrDefault(cause, Map.of());
    }
}
