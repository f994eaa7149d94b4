package io.mech.report;

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
}
