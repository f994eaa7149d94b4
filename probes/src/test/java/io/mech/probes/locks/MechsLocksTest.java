package io.mech.probes.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import workloads.Workloads;

/**
 * mech is never its own finding: what mech's threads lock, what mech's code locks on the host's
 * threads and what JFR's threads inflate leave no row, while the same workloads on the host's
 * threads are flagged. A second JFR stream, the witness, shows that what the probe left out was
 * there to hear. The probe's stream is ordered, as mech's is, so once the probe has a marker wait
 * it has had every event that ended before it.
 */
class MechsLocksTest {

    private static final String REENTRANT_LOCK = "java.util.concurrent.locks.ReentrantLock";
    private static final long DELIVERY_NANOS = 10_000_000_000L;

    private static final List<String> WARNINGS = new CopyOnWriteArrayList<>();
    private static final List<Heard> HEARD = new CopyOnWriteArrayList<>();
    private static final Workloads.Marker MARKER = new Workloads.Marker();
    private static LockProbe probe;
    private static RecordingStream stream;
    private static RecordingStream witness;

    /** An event the witness heard: its type, the monitor's class and the thread's name. */
    private record Heard(String type, String monitorClass, String thread) {
        static Heard of(final RecordedEvent event) {
            final RecordedClass monitor = event.getClass("monitorClass");
            final RecordedThread thread = event.getThread("eventThread");
            return new Heard(event.getEventType().getName(), monitor == null ? "unknown" : monitor.getName(),
                thread == null || thread.getJavaName() == null ? "" : thread.getJavaName());
        }
    }

    /** A monitor of mech's own code, taken on the host's threads as the queue probe's registry is. */
    private static final class MechsMonitor {
        private long count;

        synchronized void bump() {
            if ((++count & 2047) == 0) {
                Workloads.hold(2_000_000L);
            }
        }
    }

    @BeforeAll
    static void start() throws InterruptedException {
        stream = new RecordingStream();
        stream.setOrdered(true);
        probe = LockProbe.start(ByteBuddyAgent.install(), LockProbeSettings.DEFAULTS, stream, WARNINGS::add);
        stream.startAsync();
        assertNotNull(probe, () -> "probe did not start: " + WARNINGS);
        assertTrue(probe.awaitCounting(Duration.ofSeconds(30)), () -> "counting not installed: " + WARNINGS);
        witness = new RecordingStream();
        witness.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ofNanos(LockProbeSettings.DEFAULTS.thresholdNanos()));
        witness.enable("jdk.JavaMonitorInflate").withThreshold(Duration.ZERO);
        witness.onEvent("jdk.JavaMonitorEnter", event -> HEARD.add(Heard.of(event)));
        witness.onEvent("jdk.JavaMonitorInflate", event -> HEARD.add(Heard.of(event)));
        witness.startAsync();
    }

    @AfterAll
    static void stop() {
        if (probe != null) {
            probe.close();
        }
        stream.close();
        witness.close();
        assertEquals(List.of(), WARNINGS);
    }

    /** Polls until the condition holds, failing after the delivery bound. */
    private static void await(final String what, final BooleanSupplier condition, final Supplier<String> state)
        throws InterruptedException {
        try {
            Await.until(what, Duration.ofNanos(DELIVERY_NANOS), condition::getAsBoolean);
        } catch (final AssertionError e) {
            throw new AssertionError(e.getMessage() + ": " + state.get(), e);
        }
    }

    /** Waits until the probe has had every event that ended before this call. */
    private static void awaitDelivered() throws InterruptedException {
        final long before = markerWaits(probe.snapshot());
        MARKER.await(5);
        await("the marker wait reaches the probe", () -> markerWaits(probe.snapshot()) > before, () -> probe.snapshot().toString());
    }

    private static long markerWaits(final LockSnapshot snapshot) {
        return snapshot.sites().stream().filter(s -> s.lockClass().equals(Workloads.Marker.class.getName()))
            .mapToLong(LockSite::count).sum();
    }

    private static void awaitHeard(final String type, final String monitorClass, final String threadPrefix)
        throws InterruptedException {
        await("the witness hears " + type + " of " + monitorClass + " on " + threadPrefix, () -> HEARD.stream().anyMatch(h ->
            h.type().equals(type) && h.monitorClass().equals(monitorClass) && h.thread().startsWith(threadPrefix)), HEARD::toString);
    }

    private static boolean anyRow(final LockSnapshot snapshot, final String lockClass) {
        return snapshot.sites().stream().anyMatch(s -> s.lockClass().equals(lockClass) || s.callSite().startsWith(lockClass + "."))
            || snapshot.inflations().stream().anyMatch(i -> i.monitorClass().equals(lockClass));
    }

    private static void awaitSnapshot(final String what, final Predicate<LockSnapshot> check) throws InterruptedException {
        await(what, () -> check.test(probe.snapshot()), () -> probe.snapshot().toString());
    }

    private static long counted(final LockSnapshot snapshot) {
        return snapshot.belowThreshold().stream().filter(c -> c.lockClass().equals(REENTRANT_LOCK) && c.mode().isEmpty())
            .mapToLong(JucContention::count).sum();
    }

    @Test
    void aMonitorMechsThreadsContendLeavesNoRowOnTheHostsItIsFlagged() throws InterruptedException {
        final String lock = Workloads.ContendedMonitor.class.getName();
        Workloads.run("mech-monitor", 2, 1_500, new Workloads.ContendedMonitor()::bump);
        awaitHeard("jdk.JavaMonitorEnter", lock, "mech-monitor-");
        awaitHeard("jdk.JavaMonitorInflate", lock, "mech-monitor-");
        awaitDelivered();
        assertFalse(anyRow(probe.snapshot(), lock), () -> probe.snapshot().toString());

        Workloads.run("host-monitor", 2, 1_500, new Workloads.ContendedMonitor()::bump);
        awaitSnapshot("the host's contention and inflation flagged", s -> s.sites().stream()
            .anyMatch(site -> site.kind() == LockKind.MONITOR_ENTER && site.lockClass().equals(lock))
            && s.inflations().stream().anyMatch(i -> i.monitorClass().equals(lock)));
    }

    @Test
    void aReentrantLockMechsThreadsContendIsNotCountedOnTheHostsItIs() throws InterruptedException {
        final Workloads.QueuedReentrantCounter onMechs = new Workloads.QueuedReentrantCounter();
        final long before = counted(probe.snapshot());
        // rounds until the lock was queued for often enough, 10 s at most: beside busy threads two
        // threads seldom run at once, and five rounds once queued too few times to tell
        final long mechsDeadline = System.nanoTime() + 10_000_000_000L;
        while (onMechs.queuedSeen() < 100 && System.nanoTime() < mechsDeadline) {
            Workloads.run("mech-reentrant", 2, 500, onMechs::bump);
        }
        final long countedOnMechs = counted(probe.snapshot()) - before;
        assertTrue(onMechs.queuedSeen() >= 100, () -> "mech's threads queued for the lock only " + onMechs.queuedSeen() + " times");
        // other threads of this JVM may contend some JDK-internal lock now and then, never hundreds of times
        assertTrue(countedOnMechs < 50, () -> countedOnMechs + " contended acquisitions counted on mech's threads");

        final Workloads.QueuedReentrantCounter onHosts = new Workloads.QueuedReentrantCounter();
        final long hostsBefore = counted(probe.snapshot());
        final long hostsDeadline = System.nanoTime() + 10_000_000_000L;
        while (counted(probe.snapshot()) - hostsBefore < 1_000 && System.nanoTime() < hostsDeadline) {
            Workloads.run("host-reentrant", 2, 500, onHosts::bump);
        }
        final long countedOnHosts = counted(probe.snapshot()) - hostsBefore;
        assertTrue(countedOnHosts >= 200, () -> "only " + countedOnHosts + " contended acquisitions counted on the host's threads");
    }

    @Test
    void aMonitorMechsCodeTakesOnTheHostsThreadsLeavesNoRow() throws InterruptedException {
        final String lock = MechsMonitor.class.getName();
        Workloads.run("host-in-mech", 2, 1_500, new MechsMonitor()::bump);
        awaitHeard("jdk.JavaMonitorEnter", lock, "host-in-mech-");
        awaitHeard("jdk.JavaMonitorInflate", lock, "host-in-mech-");
        awaitDelivered();
        assertFalse(anyRow(probe.snapshot(), lock), () -> probe.snapshot().toString());
    }

    @Test
    void jfrsThreadsInflationsAreLeftOutButTheirApplicationWaitsCount() throws InterruptedException {
        final String lock = Workloads.WaitingMonitor.class.getName();
        Workloads.run("JFR Periodic Tasks", 1, 500, new Workloads.WaitingMonitor()::bumpAndWait);
        awaitHeard("jdk.JavaMonitorInflate", lock, "JFR Periodic Tasks");
        awaitDelivered();
        final LockSnapshot snapshot = probe.snapshot();
        assertTrue(snapshot.inflations().stream().noneMatch(i -> i.monitorClass().equals(lock)), snapshot::toString);
        assertTrue(snapshot.sites().stream().anyMatch(s -> s.kind() == LockKind.MONITOR_WAIT && s.lockClass().equals(lock)
            && s.callSite().startsWith(lock + ".bumpAndWait:")), () -> "a periodic-event hook's wait is the application's: " + snapshot);

        Workloads.run("host-waits", 1, 500, new Workloads.WaitingMonitor()::bumpAndWait);
        awaitSnapshot("the host's inflation by wait flagged", s -> s.inflations().stream().anyMatch(i -> i.monitorClass().equals(lock)));
    }
}
