package io.mech.examples.coordinatedomission;

import io.mech.examples.StopSignal;
import org.HdrHistogram.Histogram;

/**
 * A closed-loop load generator: one request in flight, each scheduled at a fixed interval after
 * the previous one's intended start. Latency is recorded twice: from the actual send, which is
 * what a naive generator reports, and from the intended send, which also counts the time a
 * request spent waiting behind a stalled predecessor (coordinated omission, corrected).
 *
 * <p>Not thread safe: one thread runs it.
 */
public final class LoadGenerator {
    /** Highest latency tracked: one hour in nanoseconds. */
    static final long HIGHEST_NANOS = 3_600_000_000_000L;

    private final StallingService service;
    private final long intervalNanos;
    private final Histogram fromActual = new Histogram(HIGHEST_NANOS, 3);
    private final Histogram fromIntended = new Histogram(HIGHEST_NANOS, 3);
    private long requests;
    private long intendedBelowActual;
    private long checksum;

    /**
     * @param service       the service to load
     * @param intervalNanos intended time between request starts
     */
    public LoadGenerator(final StallingService service, final long intervalNanos) {
        this.service = service;
        this.intervalNanos = intervalNanos;
    }

    /**
     * Sends requests on schedule until {@code stop}, never more than one at a time.
     *
     * @param stop when to stop
     */
    public void run(final StopSignal stop) {
        long intended = System.nanoTime();
        while (!stop.isRaised()) {
            while (System.nanoTime() < intended) {
                Thread.onSpinWait();
            }
            final long actual = System.nanoTime();
            checksum += service.call(requests);
            final long end = System.nanoTime();
            final long naive = end - actual;
            final long corrected = end - intended;
            if (corrected < naive) {
                intendedBelowActual++;
            }
            fromActual.recordValue(Math.min(naive, HIGHEST_NANOS));
            fromIntended.recordValue(Math.min(corrected, HIGHEST_NANOS));
            requests++;
            intended += intervalNanos;
        }
    }

    /** @return latency from actual send, ns */
    public Histogram fromActual() {
        return fromActual;
    }

    /** @return latency from intended send, ns */
    public Histogram fromIntended() {
        return fromIntended;
    }

    /** @return requests completed */
    public long requests() {
        return requests;
    }

    /** @return requests whose corrected latency came out below the naive one: must be none */
    public long intendedBelowActual() {
        return intendedBelowActual;
    }

    /** @return the sum of responses, non-zero once any request was served */
    public long checksum() {
        return checksum;
    }
}
