package io.mech.examples.locks;

import java.util.concurrent.atomic.AtomicInteger;

/** No lock at all: an AtomicInteger updated by a compareAndSet retry loop. */
public final class CasCounter implements GuardedCounter {
    private final AtomicInteger count = new AtomicInteger();

    @Override
    public void increment(final int times) {
        for (int i = 0; i < times; i++) {
            int seen;
            do {
                seen = count.get();
            } while (!count.compareAndSet(seen, seen + 1));
        }
    }

    /** @return increments applied so far, modulo 2^32 */
    @Override
    public long count() {
        return Integer.toUnsignedLong(count.get());
    }
}
