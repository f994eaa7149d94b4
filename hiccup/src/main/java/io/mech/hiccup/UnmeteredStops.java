package io.mech.hiccup;

/**
 * What stopped the JVM before the meter's first round, from HotSpot's counters, which run from
 * the JVM's first instruction. The meter starts on its own thread after the agent's premain, so
 * behind a busy machine's run queue a host that collects at once has paused for hundreds of
 * milliseconds before there is a meter to stall (190 ms of G1 pauses in a 3 s host beside four
 * busy threads on two cores). No histogram holds that time; this says what it was.
 *
 * @param vmMillis       how long the JVM had run when the meter began; -1 where HotSpot keeps no start time
 * @param safepoints     the safepoints before the meter
 * @param collections    the collections before the meter
 * @param gcNanos        their pause time: the collectors' counters, at most the time at safepoints
 * @param safepointNanos the rest of the time at safepoints: other VM operations
 * @param ttspNanos      the time the safepoints waited for threads to arrive
 */
public record UnmeteredStops(long vmMillis, long safepoints, long collections, long gcNanos, long safepointNanos, long ttspNanos) {

    /**
     * The counters' totals at the meter's first round.
     *
     * @param counters   HotSpot's counters
     * @param reading    their reading at that round, {@link VmCounters#read} from slot 0
     * @param nowMillis  the time of that round, in milliseconds since the epoch
     */
    static UnmeteredStops of(final VmCounters counters, final long[] reading, final long nowMillis) {
        long collectorTicks = 0;
        for (int c = VmCounters.FIRST_COLLECTOR; c < counters.width(); c++) {
            collectorTicks += reading[c];
        }
        final long atSafepoints = counters.nanos(reading[VmCounters.SAFEPOINT_TICKS]);
        // Shenandoah's collector counter runs over its concurrent cycles as well: its pauses are at safepoints
        final long gc = Math.min(counters.nanos(collectorTicks), atSafepoints);
        final long begin = counters.vmBeginMillis();
        return new UnmeteredStops(begin <= 0 ? -1 : Math.max(0, nowMillis - begin), reading[VmCounters.SAFEPOINTS],
            counters.collections(), gc, atSafepoints - gc, counters.nanos(reading[VmCounters.SYNC_TICKS]));
    }
}
