package io.mech.examples;

/** Deterministic CPU work of a chosen length, for kernels whose threads must run at set rates. */
public final class BusyWork {

    private BusyWork() {
    }

    /**
     * Runs {@code rounds} xorshift steps. The result depends on every step, so the JIT cannot
     * drop the loop as long as the caller uses it.
     *
     * @param seed   non-zero start value
     * @param rounds steps to run
     * @return the final state, never zero for a non-zero seed
     */
    public static long burn(final long seed, final int rounds) {
        long x = seed == 0 ? 1 : seed;
        for (int i = 0; i < rounds; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }
}
