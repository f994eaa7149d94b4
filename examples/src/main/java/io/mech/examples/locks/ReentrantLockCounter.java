package io.mech.examples.locks;

import java.util.concurrent.locks.ReentrantLock;

/** The count under a non-fair ReentrantLock: spins briefly, then parks the loser. */
public final class ReentrantLockCounter implements GuardedCounter {
    private final ReentrantLock lock = new ReentrantLock();
    private long count;

    @Override
    public void increment(final int times) {
        for (int i = 0; i < times; i++) {
            lock.lock();
            try {
                count++;
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public long count() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }
}
