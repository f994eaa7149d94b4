package io.mech.examples;

/**
 * How long and how wide to run a variant.
 *
 * @param seconds how long to run, positive
 * @param threads worker threads requested, or 0 for the kernel's default
 */
public record RunConfig(double seconds, int threads) {

    /** Largest accepted thread count: beyond this the kernels measure the scheduler, not the effect. */
    public static final int MAX_THREADS = 256;

    /** Validates; messages name the bound. */
    public RunConfig {
        if (!(seconds > 0) || seconds > 3600) {
            throw new IllegalArgumentException("seconds must be in (0, 3600], got " + seconds);
        }
        if (threads < 0 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be in [0, " + MAX_THREADS + "], got " + threads);
        }
    }

    /** @return the duration in nanoseconds */
    public long nanos() {
        return (long) (seconds * 1e9);
    }

    /**
     * @param defaultThreads what the kernel uses when none were requested
     * @return the requested thread count, or the default
     */
    public int threadsOr(final int defaultThreads) {
        return threads == 0 ? defaultThreads : threads;
    }
}
