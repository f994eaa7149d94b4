package io.mech.examples.locks;

/** The count under this object's monitor: thin-locked alone, inflated once threads collide. */
public final class SynchronizedCounter implements GuardedCounter {
    private long count;

    @Override
    public void increment(final int times) {
        for (int i = 0; i < times; i++) {
            incrementOnce();
        }
    }

    private synchronized void incrementOnce() {
        count++;
    }

    @Override
    public synchronized long count() {
        return count;
    }
}
