package io.mech.probes.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.Test;

/**
 * The lock counting's install when the JVM no longer transforms: in its dead phase, at the end of
 * an exit, HotSpot's JVMTI returns from a retransformation without calling any transformer
 * (java.instrument drops the WRONG_PHASE error silently). The instrumentation here answers so
 * every time; everything else reaches this JVM's real one.
 */
class LockProbeExitTest {

    private static final LockProbeSettings COUNTING_ONLY = new LockProbeSettings(1_000_000L, true, 10);

    /**
     * @param beforeRetransform run where the JVM would retransform, instead of retransforming
     */
    private static Instrumentation deadPhase(final Runnable beforeRetransform) {
        final Instrumentation jvm = ByteBuddyAgent.install();
        return (Instrumentation) Proxy.newProxyInstance(LockProbeExitTest.class.getClassLoader(),
            new Class<?>[] {Instrumentation.class}, (proxy, method, args) -> {
                if (method.getName().equals("retransformClasses")) {
                    beforeRetransform.run();
                    return null;
                }
                try {
                    return method.invoke(jvm, args);
                } catch (final InvocationTargetException e) {
                    throw e.getCause();
                }
            });
    }

    @Test
    void installThatFindsTheHostExitingWarnsNothing() throws Exception {
        final List<String> warnings = new CopyOnWriteArrayList<>();
        final CompletableFuture<LockProbe> started = new CompletableFuture<>();
        final Instrumentation inst = deadPhase(() -> {
            try {
                started.get(30, TimeUnit.SECONDS).exiting();
            } catch (final Exception e) {
                throw new IllegalStateException(e);
            }
        });
        final LockProbe probe = LockProbe.start(inst, COUNTING_ONLY, null, warnings::add);
        assertNotNull(probe, () -> "probe did not start: " + warnings);
        started.complete(probe);
        try {
            assertFalse(probe.awaitCounting(Duration.ofSeconds(30)), "nothing was woven");
            assertEquals(List.of(), warnings);
        } finally {
            probe.close();
        }
    }

    @Test
    void installThatWeavesNothingWhileTheHostRunsWarns() throws Exception {
        final List<String> warnings = new CopyOnWriteArrayList<>();
        final LockProbe probe = LockProbe.start(deadPhase(() -> { }), COUNTING_ONLY, null, warnings::add);
        assertNotNull(probe, () -> "probe did not start: " + warnings);
        try {
            assertFalse(probe.awaitCounting(Duration.ofSeconds(30)), "nothing was woven");
            assertEquals(1, warnings.size(), warnings::toString);
            assertTrue(warnings.get(0).contains("j.u.c. lock counting not installed"), warnings.get(0));
        } finally {
            probe.close();
        }
    }
}
