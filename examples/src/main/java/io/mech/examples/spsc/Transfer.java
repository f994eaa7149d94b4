package io.mech.examples.spsc;

import io.mech.examples.StopSignal;

/**
 * Drives one producer and one consumer through an {@link SpscQueue} and records what each saw.
 * The producer cycles through a pool of distinct tokens; the consumer checks by identity that
 * the n-th element it polls is the n-th token offered, so a lost, repeated or reordered element
 * is counted as a mismatch.
 */
public final class Transfer {
    /** Tokens in the pool: more than any queue here holds, so a wrong element cannot match by chance. */
    static final int POOL = 1 << 14;
    private static final int POOL_MASK = POOL - 1;

    private final SpscQueue<Object> queue;
    private final Object[] pool = new Object[POOL];
    private volatile long produced = -1;
    private long consumed;
    private long mismatches;

    /** @param queue the queue under test, empty */
    public Transfer(final SpscQueue<Object> queue) {
        this.queue = queue;
        for (int i = 0; i < POOL; i++) {
            pool[i] = new Object();
        }
    }

    /**
     * Offers tokens until {@code stop} is raised, spinning while the queue is full.
     *
     * @param stop when to stop
     */
    public void produce(final StopSignal stop) {
        final SpscQueue<Object> q = queue;
        final Object[] tokens = pool;
        long seq = 0;
        while (!stop.isRaised()) {
            if (q.offer(tokens[(int) seq & POOL_MASK])) {
                seq++;
            } else {
                Thread.onSpinWait();
            }
        }
        produced = seq;
    }

    /**
     * Polls until the producer has finished and everything it offered has been seen. If the
     * producer dies this never returns: {@link io.mech.examples.Team} gives up on it.
     */
    public void consume() {
        final SpscQueue<Object> q = queue;
        final Object[] tokens = pool;
        long seq = 0;
        long wrong = 0;
        while (true) {
            final Object token = q.poll();
            if (token != null) {
                if (token != tokens[(int) seq & POOL_MASK]) {
                    wrong++;
                }
                seq++;
            } else {
                final long total = produced;
                if (total >= 0 && seq >= total) {
                    break;
                }
                Thread.onSpinWait();
            }
        }
        consumed = seq;
        mismatches = wrong;
    }

    /** @return tokens the producer offered successfully; -1 until it has finished */
    public long produced() {
        return produced;
    }

    /** @return tokens the consumer polled; read after it has finished */
    public long consumed() {
        return consumed;
    }

    /** @return tokens that were not the expected one; read after the consumer has finished */
    public long mismatches() {
        return mismatches;
    }
}
