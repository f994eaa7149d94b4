package io.mech.probes.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.probes.MechThreads;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.Test;
import workloads.Workloads;

/** The probe's parts on their own: buckets, blocker classes, the sampler, and closing. */
class LockPartsTest {

    @Test
    void bucketsArePowersOfTwoFrom1024Nanos() {
        assertEquals(0, BlockedHistogram.bucket(0));
        assertEquals(0, BlockedHistogram.bucket(1_023));
        assertEquals(1, BlockedHistogram.bucket(1_024));
        assertEquals(1, BlockedHistogram.bucket(2_047));
        assertEquals(2, BlockedHistogram.bucket(2_048));
        assertEquals(BlockedHistogram.BUCKETS - 1, BlockedHistogram.bucket(Long.MAX_VALUE));
        for (int b = 0; b < BlockedHistogram.BUCKETS - 1; b++) {
            assertEquals(b, BlockedHistogram.bucket(BlockedHistogram.upperBoundNanos(b) - 1));
            assertEquals(b + 1, BlockedHistogram.bucket(BlockedHistogram.upperBoundNanos(b)));
        }
    }

    @Test
    void onlyLockBlockersAreLocks() {
        assertEquals("java.util.concurrent.locks.ReentrantLock",
            LockTables.jucLockOf("java.util.concurrent.locks.ReentrantLock$NonfairSync"));
        assertEquals("java.util.concurrent.locks.ReentrantLock",
            LockTables.jucLockOf("java.util.concurrent.locks.ReentrantLock$FairSync"));
        assertEquals("java.util.concurrent.locks.ReentrantReadWriteLock",
            LockTables.jucLockOf("java.util.concurrent.locks.ReentrantReadWriteLock$NonfairSync"));
        assertNull(LockTables.jucLockOf("java.util.concurrent.CountDownLatch$Sync"));
        assertNull(LockTables.jucLockOf("java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject"));
        assertNull(LockTables.jucLockOf(null));
    }

    @Test
    void samplerSeesABlockedMonitorWithItsCallSite() throws InterruptedException {
        final LockTables tables = new LockTables(100);
        final LockSampler sampler = LockSampler.start(tables, w -> { });
        final String lock = Workloads.ContendedMonitor.class.getName();
        LockSnapshot snapshot;
        try {
            final Workloads.ContendedMonitor monitor = new Workloads.ContendedMonitor();
            // Until a dump has caught a thread blocked, 10 s at most: on a loaded machine one short
            // run may fall between two dumps (a busy fresh clone's did)
            final long deadline = System.nanoTime() + 10_000_000_000L;
            do {
                Workloads.run("sampled-monitor", 2, 1_000, monitor::bump);
                snapshot = tables.snapshot(LockSnapshot.Source.SAMPLED, LockSampler.PERIOD_NANOS, false, List.of());
            } while (snapshot.sites().isEmpty() && System.nanoTime() < deadline);
        } finally {
            sampler.close();
        }
        final LockSnapshot sampled = snapshot;
        assertTrue(sampled.sites().stream().anyMatch(s -> s.kind() == LockKind.MONITOR_ENTER
            && s.lockClass().equals(lock) && s.callSite().startsWith(lock + ".bump:")), sampled::toString);
    }

    @Test
    void samplerLeavesMechsThreadsOut() throws InterruptedException {
        final LockTables tables = new LockTables(100);
        final LockSampler sampler = LockSampler.start(tables, w -> { });
        final String lock = Workloads.ContendedMonitor.class.getName();
        try {
            final Workloads.ContendedMonitor monitor = new Workloads.ContendedMonitor();
            Workloads.run("mech-sampled", 2, 1_000, monitor::bump);
            final LockSnapshot onMechs = tables.snapshot(LockSnapshot.Source.SAMPLED, LockSampler.PERIOD_NANOS, false, List.of());
            assertTrue(onMechs.sites().stream().noneMatch(s -> s.lockClass().equals(lock)), onMechs::toString);
            // Until a dump has caught the host's threads blocked, 10 s at most: on a loaded machine the
            // sampler spaces its dumps by what they cost, and one short run may fall between two.
            final long deadline = System.nanoTime() + 10_000_000_000L;
            LockSnapshot onHosts;
            do {
                Workloads.run("host-sampled", 2, 1_000, monitor::bump);
                onHosts = tables.snapshot(LockSnapshot.Source.SAMPLED, LockSampler.PERIOD_NANOS, false, List.of());
            } while (onHosts.sites().stream().noneMatch(s -> s.lockClass().equals(lock)) && System.nanoTime() < deadline);
            assertTrue(onHosts.sites().stream().anyMatch(s -> s.lockClass().equals(lock)), onHosts::toString);
        } finally {
            sampler.close();
        }
    }

    @Test
    void theBridgeLeavesOutMechsThreadsJfrsAndTheJvms() {
        for (final String name : List.of("mech-prometheus-1", "mech-", "JFR Periodic Tasks", "JFR Recorder Thread", "main",
            "HTTP-Dispatcher", "mechanic", "JFRWriter", "", "pool-1-thread-1")) {
            // not started: in this thread's group, the application's
            assertEquals(MechThreads.isMechs(name) || MechThreads.isJfrs(name), AqsBridge.notTheHosts(new Thread(name)), name);
        }
        final Map<String, Thread> live = new HashMap<>();
        Thread.getAllStackTraces().keySet().forEach(thread -> live.put(thread.getName(), thread));
        for (final String jvms : List.of("Reference Handler", "Finalizer", "Signal Dispatcher", "Common-Cleaner")) {
            assertTrue(AqsBridge.notTheHosts(live.get(jvms)), jvms);
        }
        assertFalse(AqsBridge.notTheHosts(Thread.currentThread()), Thread.currentThread().getName());
    }

    @Test
    void eventThreadsAreMechsByTheNameJfrRecordedOrTheirNameNow() throws InterruptedException {
        final CountDownLatch done = new CountDownLatch(1);
        final Thread renamed = new Thread(() -> awaitQuietly(done), "HTTP-Dispatcher");
        final Thread hosts = new Thread(() -> awaitQuietly(done), "HTTP-Dispatcher");
        renamed.start();
        hosts.start();
        renamed.setName("mech-prometheus-HTTP-Dispatcher");
        try {
            final EventThreads threads = new EventThreads();
            assertTrue(threads.isMechs("HTTP-Dispatcher", renamed.getId()), "renamed by mech after JFR saw it");
            assertFalse(threads.isMechs("HTTP-Dispatcher", hosts.getId()), "the host's own server");
            assertTrue(threads.isMechs("mech-jfr-stream", -1));
            assertFalse(threads.isMechs("VM Thread", -1));
        } finally {
            done.countDown();
        }
        renamed.join();
        hosts.join();
        assertFalse(new EventThreads().isMechs("HTTP-Dispatcher", renamed.getId()), "an ended thread keeps its recorded name");
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void theTablesTakeNothingOnceTheHostExits() {
        final LockTables tables = new LockTables(100);
        tables.block(LockKind.MONITOR_ENTER, "app.Lock", "app.Main.run:1", 2_000_000L, "worker");
        tables.inflate("app.Lock", "Monitor Enter");
        tables.exiting();
        tables.block(LockKind.MONITOR_ENTER, "app.Lock", "app.Main.run:1", 2_000_000L, "worker");
        tables.block(LockKind.MONITOR_WAIT, "java.lang.Thread", "app.Main.exit:2", 2_000_000L, null);
        tables.inflate("java.lang.Thread", "Monitor Wait");
        tables.deflate();
        final LockSnapshot snapshot = tables.snapshot(LockSnapshot.Source.JFR, 1_000_000L, false, List.of());
        assertEquals(1, snapshot.sites().size(), snapshot::toString);
        assertEquals(1, snapshot.sites().get(0).count(), snapshot::toString);
        assertEquals(List.of(new Inflation("app.Lock", "Monitor Enter", 1)), snapshot.inflations());
        assertEquals(0, snapshot.deflations());
    }

    @Test
    void countingStopsWhenTheHostBeginsToExit() throws InterruptedException {
        final List<String> warnings = new CopyOnWriteArrayList<>();
        final LockProbe probe = LockProbe.start(ByteBuddyAgent.install(), LockProbeSettings.DEFAULTS, null, warnings::add);
        try {
            assertTrue(probe.awaitCounting(Duration.ofSeconds(30)), warnings::toString);
            final Workloads.QueuedReentrantCounter counter = new Workloads.QueuedReentrantCounter();
            for (int round = 0; round < 5 && counted(probe.snapshot()) == 0; round++) {
                Workloads.run("before-exit", 2, 300, counter::bump);
            }
            final long atExit = counted(probe.snapshot());
            assertTrue(atExit > 0, () -> "nothing counted before the exit: " + probe.snapshot());
            probe.exiting();
            final long queuedBefore = counter.queuedSeen();
            for (int round = 0; round < 5 && counter.queuedSeen() == queuedBefore; round++) {
                Workloads.run("while-exiting", 2, 300, counter::bump);
            }
            assertTrue(counter.queuedSeen() > queuedBefore, "the lock was contended while exiting");
            assertEquals(atExit, counted(probe.snapshot()));
        } finally {
            probe.close();
        }
        assertEquals(List.of(), warnings);
    }

    private static long counted(final LockSnapshot snapshot) {
        return snapshot.belowThreshold().stream().mapToLong(JucContention::count).sum();
    }

    @Test
    void closingRemovesTheAdvice() throws Throwable {
        final List<String> warnings = new CopyOnWriteArrayList<>();
        final LockProbe probe = LockProbe.start(ByteBuddyAgent.install(), LockProbeSettings.DEFAULTS, null, warnings::add);
        assertTrue(probe.awaitCounting(Duration.ofSeconds(30)), warnings::toString);
        probe.close();
        final Class<?> bridge = Class.forName(AqsCounting.BRIDGE.name(), true, null);
        final long[] cells = (long[]) MethodHandles.privateLookupIn(bridge, MethodHandles.lookup())
            .findStatic(bridge, "cells", MethodType.methodType(long[].class)).invoke();
        final long[] before = cells.clone();
        final Workloads.ReentrantCounter counter = new Workloads.ReentrantCounter();
        Workloads.run("after-close", 2, 500, counter::bump);
        final List<Integer> changed = new ArrayList<>();
        for (int i = 0; i < cells.length; i++) {
            if (cells[i] != before[i]) {
                changed.add(i);
            }
        }
        assertEquals(List.of(), changed);
        assertEquals(List.of(), warnings);
    }
}
