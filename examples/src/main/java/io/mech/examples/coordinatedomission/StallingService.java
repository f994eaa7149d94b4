package io.mech.examples.coordinatedomission;

import io.mech.examples.BusyWork;
import java.util.concurrent.locks.LockSupport;

/**
 * A mock service: each call burns a few microseconds, and now and then one call stalls, as a
 * service does when it hits a GC, a lock or a slow disk.
 *
 * <p>Not thread safe: one caller.
 */
public final class StallingService {
    private final long firstStallNanos;
    private final long stallEveryNanos;
    private final long stallNanos;
    private final int workRounds;
    private long nextStall;
    private long started = -1;
    private long stalls;
    private long work = 1;

    /**
     * @param firstStallNanos when the first stall comes, after the first call
     * @param stallEveryNanos time between stalls, or 0 for a service that never stalls
     * @param stallNanos      how long a stall lasts
     * @param workRounds      {@link BusyWork} rounds per call
     */
    public StallingService(final long firstStallNanos, final long stallEveryNanos, final long stallNanos,
                           final int workRounds) {
        this.firstStallNanos = firstStallNanos;
        this.stallEveryNanos = stallEveryNanos;
        this.stallNanos = stallNanos;
        this.workRounds = workRounds;
    }

    /**
     * Serves one request.
     *
     * @param request the request, any value
     * @return a response derived from the request
     */
    public long call(final long request) {
        final long now = System.nanoTime();
        if (started < 0) {
            started = now;
            nextStall = now + firstStallNanos;
        }
        if (stallEveryNanos > 0 && now >= nextStall) {
            stalls++;
            nextStall += stallEveryNanos;
            final long until = now + stallNanos;
            long left;
            while ((left = until - System.nanoTime()) > 0) {
                LockSupport.parkNanos(left);
            }
        }
        work = BusyWork.burn(work ^ request, workRounds);
        return work;
    }

    /** @return stalls so far */
    public long stalls() {
        return stalls;
    }
}
