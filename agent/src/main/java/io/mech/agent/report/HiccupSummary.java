package io.mech.agent.report;

import io.mech.hiccup.HiccupSnapshot;

/**
 * The hiccup percentiles of one JVM, in nanoseconds.
 *
 * @param jvm       which meter: {@code host}, {@code virtual} (the host's virtual-thread meter) or {@code control}
 * @param p50       median hiccup
 * @param p90       90th percentile
 * @param p99       99th percentile
 * @param p999      99.9th percentile
 * @param max       longest hiccup
 * @param samples   number of samples, counting those added for coordinated omission
 * @param intervals number of logged intervals
 * @param stalls    hiccups at least as long as the stall threshold; -1 where not measured
 * @param stallTime their total length, uncorrected; -1 where not measured
 * @param log       the interval log written, or empty when none is
 * @param logProblem why the log was not written (then {@code log} is empty), or stopped being
 *                   written part way; empty when it was written whole or none was asked for
 */
public record HiccupSummary(String jvm, long p50, long p90, long p99, long p999, long max,
                            long samples, long intervals, long stalls, long stallTime, String log, String logProblem) {

    /** Summarises a snapshot whose log was written without trouble. */
    public static HiccupSummary of(final String jvm, final HiccupSnapshot snapshot, final String log) {
        return of(jvm, snapshot, log, "");
    }

    /** Summarises a snapshot and says what became of its log. */
    public static HiccupSummary of(final String jvm, final HiccupSnapshot snapshot, final String log, final String logProblem) {
        return new HiccupSummary(jvm,
            snapshot.percentileNanos(50.0), snapshot.percentileNanos(90.0), snapshot.percentileNanos(99.0),
            snapshot.percentileNanos(99.9), snapshot.maxNanos(), snapshot.count(), snapshot.intervals(),
            snapshot.stalls(), snapshot.stallNanos(), log, logProblem);
    }
}
