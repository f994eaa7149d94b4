package io.mech.examples.counters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** A read, compareAndSet, retry loop: under contention a thread may lose and retry many times. */
public final class CasLoopCounter implements SharedCounter {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(CasLoopCounter.class, "value", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long value;

    @Override
    public void increment(final int times) {
        for (int i = 0; i < times; i++) {
            long seen;
            do {
                seen = value;
            } while (!VALUE.compareAndSet(this, seen, seen + 1));
        }
    }

    @Override
    public long sum() {
        return value;
    }
}
