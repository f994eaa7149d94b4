package io.mech.probes.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordingStream;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import workloads.Workloads;

/**
 * The probe in this JVM, installed through ByteBuddy's agent, against small contended and
 * uncontended workloads: contention is flagged with the lock class and call site, waiting is
 * put down to wait, and the uncontended workloads leave no trace.
 */
class LockProbeTest {

    /** JFR delivers events up to about a second after they end. */
    private static final long SETTLE_MILLIS = 2_500;

    private static final List<String> WARNINGS = new CopyOnWriteArrayList<>();
    private static LockProbe probe;
    private static RecordingStream stream;

    @BeforeAll
    static void start() throws InterruptedException {
        stream = new RecordingStream();
        probe = LockProbe.start(ByteBuddyAgent.install(), LockProbeSettings.DEFAULTS, stream, WARNINGS::add);
        stream.startAsync();
        assertNotNull(probe, () -> "probe did not start: " + WARNINGS);
        assertTrue(probe.awaitCounting(Duration.ofSeconds(30)), () -> "counting not installed: " + WARNINGS);
    }

    @AfterAll
    static void stop() {
        if (probe != null) {
            probe.close();
        }
        stream.close();
        assertEquals(List.of(), WARNINGS);
    }

    /**
     * Runs two threads on the action until they collided 1,000 times, for 20 s at most: they
     * collide only while both run, which on a loaded machine takes longer (beside two busy loops on
     * two cores, five rounds of 1,000 made 680 collisions in a fresh clone's run).
     */
    private static void collide(final String name, final Workloads.Step action, final LongSupplier collisions)
        throws InterruptedException {
        final long deadline = System.nanoTime() + 20_000_000_000L;
        while (collisions.getAsLong() < 1_000 && System.nanoTime() < deadline) {
            Workloads.run(name, 2, 1_000, action);
        }
    }

    /** Polls until a snapshot passes the check or the settle time is over; returns the last. */
    private static LockSnapshot awaitSnapshot(final Predicate<LockSnapshot> check) throws InterruptedException {
        final long end = System.nanoTime() + SETTLE_MILLIS * 1_000_000L;
        LockSnapshot last = probe.snapshot();
        while (!check.test(last) && System.nanoTime() < end) {
            Thread.sleep(100);
            last = probe.snapshot();
        }
        return last;
    }

    private static List<LockSite> sitesOf(final LockSnapshot snapshot, final Class<?> lockClass) {
        return sitesOf(snapshot, lockClass.getName());
    }

    private static List<LockSite> sitesOf(final LockSnapshot snapshot, final String lockClass) {
        final List<LockSite> found = new ArrayList<>();
        for (final LockSite site : snapshot.sites()) {
            if (site.lockClass().equals(lockClass)) {
                found.add(site);
            }
        }
        return found;
    }

    private static List<Inflation> inflationsOf(final LockSnapshot snapshot, final Class<?> monitorClass) {
        final List<Inflation> found = new ArrayList<>();
        for (final Inflation inflation : snapshot.inflations()) {
            if (inflation.monitorClass().equals(monitorClass.getName())) {
                found.add(inflation);
            }
        }
        return found;
    }

    private static long counted(final LockSnapshot snapshot, final String lockClass, final String mode) {
        return snapshot.belowThreshold().stream()
            .filter(c -> c.lockClass().equals(lockClass) && c.mode().equals(mode))
            .mapToLong(JucContention::count).sum();
    }

    private static Optional<LockSite> siteAt(final LockSnapshot snapshot, final LockKind kind,
                                             final String lockClass, final String callSitePrefix) {
        return snapshot.sites().stream()
            .filter(s -> s.kind() == kind && s.lockClass().equals(lockClass) && s.callSite().startsWith(callSitePrefix))
            .findFirst();
    }

    @Test
    void contendedMonitorIsFlaggedWithClassCallSiteOwnersAndInflation() throws InterruptedException {
        final Workloads.ContendedMonitor monitor = new Workloads.ContendedMonitor();
        final List<String> workers = Workloads.run("contended-monitor", 2, 1_500, monitor::bump);
        final String lock = Workloads.ContendedMonitor.class.getName();
        final String bump = lock + ".bump:";
        final LockSnapshot snapshot = awaitSnapshot(s -> siteAt(s, LockKind.MONITOR_ENTER, lock, bump).isPresent()
            && !inflationsOf(s, Workloads.ContendedMonitor.class).isEmpty());

        final LockSite site = siteAt(snapshot, LockKind.MONITOR_ENTER, lock, bump)
            .orElseThrow(() -> new AssertionError("no monitor contention at " + bump + " in " + snapshot.sites()));
        assertTrue(site.count() >= 1 && site.maxNanos() >= probe.snapshot().thresholdNanos(), site::toString);
        assertTrue(site.totalNanos() >= site.maxNanos(), site::toString);
        assertEquals(site.count(), site.histogram().total(), site::toString);
        assertFalse(site.topThreads().isEmpty(), site::toString);
        assertTrue(workers.contains(site.topThreads().get(0).thread()), site::toString);
        assertTrue(snapshot.contendedClasses(1).contains(lock), snapshot::toString);

        final List<Inflation> inflations = inflationsOf(snapshot, Workloads.ContendedMonitor.class);
        assertTrue(inflations.stream().anyMatch(i -> i.cause().contains("Enter") && !i.byWait()), inflations::toString);
    }

    @Test
    void loneMonitorLeavesNoTrace() throws InterruptedException {
        final Workloads.LoneMonitor monitor = new Workloads.LoneMonitor();
        Workloads.run("lone-monitor", 1, 1_000, monitor::bump);
        assertTrue(monitor.count() > 0);
        Thread.sleep(SETTLE_MILLIS);
        final LockSnapshot snapshot = probe.snapshot();
        assertEquals(List.of(), sitesOf(snapshot, Workloads.LoneMonitor.class));
        assertEquals(List.of(), inflationsOf(snapshot, Workloads.LoneMonitor.class));
    }

    @Test
    void waitInflatesWithoutContention() throws InterruptedException {
        final Workloads.WaitingMonitor monitor = new Workloads.WaitingMonitor();
        Workloads.run("waiting-monitor", 1, 1_000, monitor::bumpAndWait);
        final LockSnapshot snapshot = awaitSnapshot(s -> !inflationsOf(s, Workloads.WaitingMonitor.class).isEmpty());
        final List<Inflation> inflations = inflationsOf(snapshot, Workloads.WaitingMonitor.class);
        assertFalse(inflations.isEmpty(), snapshot::toString);
        assertTrue(inflations.stream().allMatch(Inflation::byWait), inflations::toString);
        assertFalse(snapshot.contendedClasses(1).contains(Workloads.WaitingMonitor.class.getName()), snapshot::toString);
        assertTrue(sitesOf(snapshot, Workloads.WaitingMonitor.class).stream().allMatch(s -> s.kind() == LockKind.MONITOR_WAIT),
            snapshot::toString);
    }

    /** Its static initialiser takes 50 ms: threads that touch it meanwhile wait for it. */
    static final class SlowToInitialise {
        static {
            try {
                Thread.sleep(50);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        static void touch() {
        }
    }

    /**
     * JFR reports the JVM's wait for another thread's class initialisation as a monitor wait on
     * an int[] (HotSpot's init lock), with no Object.wait on the stack: class loading, not a
     * monitor the code waits on. A real wait in the same run is heard, so the probe was listening.
     */
    @Test
    void threadsWaitingForAClassToInitialiseAreNoMonitorWait() throws InterruptedException {
        final Thread[] touching = new Thread[4];
        for (int t = 0; t < touching.length; t++) {
            touching[t] = new Thread(SlowToInitialise::touch, "touching-" + t);
            touching[t].start();
        }
        for (final Thread t : touching) {
            t.join();
        }
        final Workloads.WaitingMonitor monitor = new Workloads.WaitingMonitor();
        Workloads.run("waiting-after-init", 1, 200, monitor::bumpAndWait);
        final LockSnapshot snapshot = awaitSnapshot(s -> !sitesOf(s, Workloads.WaitingMonitor.class).isEmpty());
        assertFalse(sitesOf(snapshot, Workloads.WaitingMonitor.class).isEmpty(), snapshot::toString);
        assertEquals(List.of(), sitesOf(snapshot, "[I"), snapshot::toString);
    }

    /** A host thread blocked on a monitor a thread of mech's held is mech's own cost, no finding of the host's. */
    @Test
    void aMonitorHeldByMechsThreadIsNoFinding() throws Exception {
        final Workloads.HeldMonitor monitor = new Workloads.HeldMonitor();
        final java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        final Thread mechs = new Thread(() -> {
            synchronized (monitor) {
                held.countDown();
                final long until = System.nanoTime() + 50_000_000L;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
        }, "mech-test-holder");
        mechs.start();
        held.await();
        final Thread host = new Thread(monitor::enter, "host-entering");
        host.start();
        host.join();
        mechs.join();
        final Workloads.WaitingMonitor waiting = new Workloads.WaitingMonitor();
        Workloads.run("waiting-after-mechs-hold", 1, 200, waiting::bumpAndWait);
        final LockSnapshot snapshot = awaitSnapshot(s -> !sitesOf(s, Workloads.WaitingMonitor.class).isEmpty());
        assertFalse(sitesOf(snapshot, Workloads.WaitingMonitor.class).isEmpty(), "the probe was listening: " + snapshot);
        assertEquals(List.of(), sitesOf(snapshot, Workloads.HeldMonitor.class), snapshot::toString);
    }

    @Test
    void contendedReentrantLockIsCountedBelowTheThresholdAndParksNameTheCallSite() throws InterruptedException {
        final String lock = "java.util.concurrent.locks.ReentrantLock";
        final long before = counted(probe.snapshot(), lock, "");
        final Workloads.ReentrantCounter counter = new Workloads.ReentrantCounter();
        collide("contended-reentrant", counter::bump, () -> counted(probe.snapshot(), lock, "") - before);
        final String bump = Workloads.ReentrantCounter.class.getName() + ".bump:";
        final LockSnapshot snapshot = awaitSnapshot(s -> siteAt(s, LockKind.JUC_LOCK, lock, bump).isPresent());

        final long contended = counted(snapshot, lock, "") - before;
        final long seenByJfr = siteAt(snapshot, LockKind.JUC_LOCK, lock, bump).orElseThrow().count();
        assertTrue(contended >= 200 && contended > 3 * seenByJfr,
            () -> "only " + contended + " contended acquisitions counted, JFR saw " + seenByJfr + ": " + snapshot);
        final JucContention row = snapshot.belowThreshold().stream().filter(c -> c.lockClass().equals(lock))
            .findFirst().orElseThrow();
        assertEquals(row.count(), row.histogram().total(), row::toString);
        assertTrue(row.histogram().count(0) + row.histogram().count(1) + row.histogram().count(2) > 0,
            () -> "no acquisition under 4 us, all would have been JFR's to see: " + row);
        assertTrue(siteAt(snapshot, LockKind.JUC_LOCK, lock, bump).isPresent(), snapshot::toString);
        assertTrue(snapshot.contendedClasses(1_000).contains(lock), snapshot::toString);
        // a j.u.c. lock is not a monitor: no monitor rows name the counter
        assertEquals(List.of(), sitesOf(snapshot, Workloads.ReentrantCounter.class));
        assertEquals(List.of(), inflationsOf(snapshot, Workloads.ReentrantCounter.class));
    }

    @Test
    void borrowerWaitingForAPermitIsShownAndAnIdleWorkerIsNot() throws InterruptedException {
        final Workloads.IdleWorkers idle = new Workloads.IdleWorkers();
        Workloads.run("idle-feeder", 1, 600, idle::feed);
        final Workloads.PermitPool pool = new Workloads.PermitPool(LockProbeSettings.DEFAULTS.thresholdNanos());
        Workloads.run("permit-borrower", 2, 1_000, pool::borrow);
        final String semaphore = "java.util.concurrent.Semaphore";
        final String borrow = Workloads.PermitPool.class.getName() + ".borrow:";
        final LockSnapshot snapshot = awaitSnapshot(s -> siteAt(s, LockKind.JUC_WAIT, semaphore, borrow)
            .filter(site -> site.totalNanos() >= pool.longWaitedNanos() / 2).isPresent());

        final LockSite site = siteAt(snapshot, LockKind.JUC_WAIT, semaphore, borrow)
            .orElseThrow(() -> new AssertionError("no wait on the semaphore at " + borrow + ": " + snapshot));
        // a park lies within its acquire: JFR's total cannot pass the borrowers' own
        assertTrue(site.totalNanos() >= pool.longWaitedNanos() / 2 && site.totalNanos() <= pool.waitedNanos(),
            () -> site + " against " + pool.longWaitedNanos() / 1e6 + " ms in acquisitions of 1 ms or more, "
                + pool.waitedNanos() / 1e6 + " ms in all");
        assertTrue(site.maxNanos() >= LockProbeSettings.DEFAULTS.thresholdNanos() && !site.kind().isContention(), site::toString);
        for (final LockSite s : snapshot.sites()) {
            // the workers' frame; the feeder's execute may rightly contend for the queue's lock as it signals them (1.3 ms under load)
            assertFalse(s.callSite().startsWith(Workloads.IdleWorkers.class.getName() + ".runWorker:"), () -> "an idle worker is not shown: " + s);
        }
    }

    @Test
    void loneReentrantLockIsNotCounted() throws InterruptedException {
        final String lock = "java.util.concurrent.locks.ReentrantLock";
        final long before = counted(probe.snapshot(), lock, "");
        final Workloads.LoneReentrantCounter counter = new Workloads.LoneReentrantCounter();
        Workloads.run("lone-reentrant", 1, 1_000, counter::bump);
        Thread.sleep(SETTLE_MILLIS);
        final LockSnapshot snapshot = probe.snapshot();
        // other threads of this JVM may contend some JDK-internal lock now and then, never thousands of times
        final long contended = counted(snapshot, lock, "") - before;
        assertTrue(contended < 50, () -> contended + " contended acquisitions of a lock one thread used");
        assertEquals(Optional.empty(), siteAt(snapshot, LockKind.JUC_LOCK, lock,
            Workloads.LoneReentrantCounter.class.getName() + ".bump:"));
    }

    @Test
    void contendedWriteLockIsCountedAsWrite() throws InterruptedException {
        final String lock = "java.util.concurrent.locks.ReentrantReadWriteLock";
        final long before = counted(probe.snapshot(), lock, "write");
        final Workloads.ReadWriteCounter counter = new Workloads.ReadWriteCounter();
        collide("contended-write", counter::bump, () -> counted(probe.snapshot(), lock, "write") - before);
        final long contended = counted(probe.snapshot(), lock, "write") - before;
        assertTrue(contended >= 1_000, () -> "only " + contended + " contended write acquisitions counted");
    }

    @Test
    void spinLockIsInvisible() throws InterruptedException {
        final Workloads.SpinCounter counter = new Workloads.SpinCounter();
        Workloads.run("spin", 2, 1_000, counter::bump);
        Thread.sleep(SETTLE_MILLIS);
        final LockSnapshot snapshot = probe.snapshot();
        assertEquals(List.of(), sitesOf(snapshot, Workloads.SpinCounter.class));
        assertEquals(List.of(), inflationsOf(snapshot, Workloads.SpinCounter.class));
        for (final LockSite site : snapshot.sites()) {
            assertFalse(site.callSite().startsWith(Workloads.SpinCounter.class.getName()), site::toString);
        }
    }
}
