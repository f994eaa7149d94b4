package io.mech.probes.locks;

import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code acquire(Node, arg, shared, interruptible, timed, time)} of
 * AbstractQueuedSynchronizer and AbstractQueuedLongSynchronizer: the slow path that
 * {@code lock()} takes only after its first CAS failed. A null node marks a fresh acquisition;
 * a condition waiter re-acquiring after a signal passes its node and is not counted as
 * contention. {@link AqsCounting} rewrites the reference to {@link AqsBridge} to the bridge
 * defined inside {@code java.util.concurrent.locks}.
 */
final class AqsAdvice {

    private AqsAdvice() {
    }

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static long enter(@Advice.Argument(0) final Object node) {
        return node == null ? System.nanoTime() : 0L;
    }

    @Advice.OnMethodExit(suppress = Throwable.class, onThrowable = Throwable.class)
    static void exit(@Advice.This final Object sync, @Advice.Argument(2) final boolean shared,
                     @Advice.Enter final long start) {
        if (start != 0L) {
            AqsBridge.contended(sync, shared, start);
        }
    }
}
