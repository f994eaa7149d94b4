package io.mech.examples.lazyset;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Both flags in one small object: each write also invalidates the other thread's flag. */
public final class SharedLineFlags implements FlagPair {
    private static final VarHandle PING;
    private static final VarHandle PONG;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PING = lookup.findVarHandle(SharedLineFlags.class, "ping", long.class);
            PONG = lookup.findVarHandle(SharedLineFlags.class, "pong", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    volatile long ping;
    volatile long pong;

    @Override
    public void setPing(final long value) {
        PING.setRelease(this, value);
    }

    @Override
    public long ping() {
        return ping;
    }

    @Override
    public void setPong(final long value) {
        PONG.setRelease(this, value);
    }

    @Override
    public long pong() {
        return pong;
    }
}
