package io.mech.examples.locks;

/**
 * One thread alone on a monitor, calling {@code wait(1)} on each increment. Waiting needs a
 * wait set, which only an inflated monitor has, so the monitor inflates without any contention.
 */
public final class WaitNotifyCounter implements GuardedCounter {
    private long count;

    @Override
    public void increment(final int times) {
        for (int i = 0; i < times; i++) {
            incrementAndWait();
        }
    }

    private synchronized void incrementAndWait() {
        count++;
        try {
            wait(1);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", e);
        }
    }

    @Override
    public synchronized long count() {
        return count;
    }
}
