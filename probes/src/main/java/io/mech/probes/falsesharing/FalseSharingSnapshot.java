package io.mech.probes.falsesharing;

import java.util.List;

/**
 * What the probe knows now: before, during or after its window.
 *
 * @param state      where the window stands
 * @param seconds    the window's measured length, 0 before it ended
 * @param woven      classes woven: for the window, or since start-up when woven as they load
 * @param fields     fields counted
 * @param candidates layout candidates among the included classes: pairs of fields some code uses,
 *                   127 bytes apart or closer
 * @param verdicts   the window's verdicts, worst first within each kind
 * @param endedMillis when the window ended, in epoch milliseconds; 0 before
 * @param arraySlots  array slots counted (atomic arrays, array-element VarHandles, plain array
 *                    instructions), a slot two threads used counted for each
 * @param notCounted  what the window did not look at, as phrases for a person: kinds of access the
 *                    weaver met and cannot count, accesses lost, the code outside the weaving
 */
public record FalseSharingSnapshot(State state, double seconds, int woven, int fields, List<LayoutCandidate> candidates,
                                   List<Verdict> verdicts, long endedMillis, int arraySlots, List<String> notCounted) {

    /** A snapshot with no end time: before a window ended. */
    public FalseSharingSnapshot(final State state, final double seconds, final int woven, final int fields,
                                final List<LayoutCandidate> candidates, final List<Verdict> verdicts) {
        this(state, seconds, woven, fields, candidates, verdicts, 0);
    }

    /** A snapshot that counted no array slot and names nothing it did not look at. */
    public FalseSharingSnapshot(final State state, final double seconds, final int woven, final int fields,
                                final List<LayoutCandidate> candidates, final List<Verdict> verdicts, final long endedMillis) {
        this(state, seconds, woven, fields, candidates, verdicts, endedMillis, 0, List.of());
    }

    /** Where the window stands. */
    public enum State {
        /** Waiting for probes.falsesharing.delay to pass. */
        WAITING,
        /** Counting is woven in. */
        MEASURING,
        /** The window is over and the counting removed. */
        DONE
    }

    /** Copies. */
    public FalseSharingSnapshot {
        candidates = List.copyOf(candidates);
        verdicts = List.copyOf(verdicts);
        notCounted = List.copyOf(notCounted);
    }

    /** @return the candidates on one line in some placement */
    public long sameLineCandidates() {
        return candidates.stream().filter(c -> !c.adjacent()).count();
    }

    /** @return the candidates on neighbouring lines */
    public long adjacentLineCandidates() {
        return candidates.stream().filter(LayoutCandidate::adjacent).count();
    }

    /** @return when the window ended, e.g. {@code 2026-11-24T09:45:12Z}, or empty before */
    public String ended() {
        return endedMillis == 0 ? "" : java.time.Instant.ofEpochMilli(endedMillis).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
            .toString();
    }
}
