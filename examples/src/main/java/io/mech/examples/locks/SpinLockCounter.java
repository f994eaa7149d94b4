package io.mech.examples.locks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The count under a test-and-test-and-set spin lock: never parks, so no JVM lock event sees the
 * waiting; it burns a core instead and drags the lock word between cores.
 */
public final class SpinLockCounter implements GuardedCounter {
    private static final VarHandle LOCKED;

    static {
        try {
            LOCKED = MethodHandles.lookup().findVarHandle(SpinLockCounter.class, "locked", int.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int locked;
    private long count;

    @Override
    public void increment(final int times) {
        for (int i = 0; i < times; i++) {
            lock();
            count++;
            locked = 0;
        }
    }

    private void lock() {
        while (locked != 0 || !LOCKED.compareAndSet(this, 0, 1)) {
            Thread.onSpinWait();
        }
    }

    @Override
    public long count() {
        lock();
        final long value = count;
        locked = 0;
        return value;
    }
}
