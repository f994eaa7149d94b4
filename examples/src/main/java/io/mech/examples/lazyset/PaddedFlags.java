package io.mech.examples.lazyset;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Keeps {@code ping} off the line of whatever the allocator placed before this object. */
abstract class PaddedFlagsLeftPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The ping thread's flag. */
abstract class PaddedFlagsPing extends PaddedFlagsLeftPad {
    volatile long ping;
}

/** Keeps the two flags 128 bytes apart. */
abstract class PaddedFlagsMiddlePad extends PaddedFlagsPing {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/** The pong thread's flag. */
abstract class PaddedFlagsPong extends PaddedFlagsMiddlePad {
    volatile long pong;
}

/** Keeps {@code pong} off whatever is allocated after this object. */
abstract class PaddedFlagsRightPad extends PaddedFlagsPong {
    long r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15;
}

/** The same two flags on lines of their own. */
public final class PaddedFlags extends PaddedFlagsRightPad implements FlagPair {
    private static final VarHandle PING;
    private static final VarHandle PONG;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PING = lookup.findVarHandle(PaddedFlagsPing.class, "ping", long.class);
            PONG = lookup.findVarHandle(PaddedFlagsPong.class, "pong", long.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
