package io.mech.examples.counters;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** getAndAdd on one field: a single LOCK XADD on x86, which never retries but owns the line. */
public final class XaddCounter implements SharedCounter {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(XaddCounter.class, "value", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long value;

    @Override
    public void increment(final int times) {
        for (int i = 0; i < times; i++) {
            VALUE.getAndAdd(this, 1L);
        }
    }

    @Override
    public long sum() {
        return value;
    }
}
