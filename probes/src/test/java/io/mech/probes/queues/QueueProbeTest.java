package io.mech.probes.queues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.lang.instrument.ClassDefinition;
import java.lang.invoke.MethodHandles;
import java.lang.management.ManagementFactory;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import workloads.QueueWorkloads;

/**
 * The probe in this JVM, installed through ByteBuddy's agent, against queues that application
 * code (package {@code workloads}) creates. The sampler's own period is a minute, so the tests
 * drive every sample themselves with {@link QueueProbe#sampleNow}.
 */
class QueueProbeTest {

    private static final List<String> WARNINGS = new CopyOnWriteArrayList<>();
    private static final List<QueueAlert> ALERTS = new CopyOnWriteArrayList<>();
    private static QueueProbe probe;
    /** QueueWorkloads as loaded, with its Counted queue, by a loader of its own before the probe started. */
    private static Class<?> EARLY;

    private static boolean slotField(final Class<?> type) {
        return Arrays.stream(type.getDeclaredFields()).anyMatch(f -> f.getName().equals(SlotField.NAME) && f.isSynthetic());
    }

    @BeforeAll
    static void start() throws Exception {
        final URL classes = QueueWorkloads.class.getProtectionDomain().getCodeSource().getLocation();
        final ClassLoader early = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader());
        // by name: a class literal would load Counted here, before the probe, in the test's own loader
        Class.forName("workloads.QueueWorkloads$Counted", true, early);
        EARLY = Class.forName("workloads.QueueWorkloads", true, early);
        probe = QueueProbe.start(ByteBuddyAgent.install(),
            new QueueSettings(List.of("workloads"), QueueSettings.MAX_SAMPLE_NANOS, 0.7, 10_000), false, WARNINGS::add);
        assertNotNull(probe, () -> "probe did not start: " + WARNINGS);
        assertTrue(probe.awaitInstalled(Duration.ofSeconds(30)), () -> "not installed: " + WARNINGS);
        probe.addListener(ALERTS::add);
    }

    @AfterAll
    static void stop() {
        if (probe != null) {
            probe.close();
        }
        assertEquals(List.of(), WARNINGS);
    }

    /** Drops the queues earlier tests made, so each test's sites are its own. */
    @BeforeEach
    void collectEarlierQueues() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        probe.sampleNow();
    }

    private static List<QueueStats> at(final String method) {
        return probe.snapshot().queues().stream()
            .filter(q -> q.site().startsWith("workloads.QueueWorkloads." + method + ":")).toList();
    }

    private static QueueStats only(final String method) {
        final List<QueueStats> found = at(method);
        assertEquals(1, found.size(), () -> method + ": " + probe.snapshot());
        return found.get(0);
    }

    @Test
    void readsDepthCapacityAndDequeuesOfEveryJdkQueue() throws Exception {
        final ArrayBlockingQueue<Integer> abq = QueueWorkloads.arrayBlocking(100);
        final LinkedBlockingQueue<Integer> lbq = QueueWorkloads.linkedBlocking(50);
        final LinkedBlockingDeque<Integer> lbd = QueueWorkloads.linkedDeque(40);
        final PriorityBlockingQueue<Integer> pbq = QueueWorkloads.priority();
        final DelayQueue<QueueWorkloads.Delay> dq = QueueWorkloads.delay();
        final ConcurrentLinkedQueue<Integer> clq = QueueWorkloads.concurrentLinked();
        final LinkedTransferQueue<Integer> ltq = QueueWorkloads.transfer();
        for (int i = 0; i < 30; i++) {
            abq.add(i);
            lbq.add(i);
            lbd.add(i);
            pbq.add(i);
            dq.add(new QueueWorkloads.Delay());
            clq.add(i);
            ltq.add(i);
        }
        for (int i = 0; i < 10; i++) {
            abq.poll();
            lbq.take();
            lbd.pollLast();
            pbq.poll();
            dq.poll();
            clq.poll();
            ltq.poll(1, TimeUnit.SECONDS);
        }
        probe.sampleNow();
        check("arrayBlocking", "java.util.concurrent.ArrayBlockingQueue", 100);
        check("linkedBlocking", "java.util.concurrent.LinkedBlockingQueue", 50);
        check("linkedDeque", "java.util.concurrent.LinkedBlockingDeque", 40);
        check("priority", "java.util.concurrent.PriorityBlockingQueue", -1);
        check("delay", "java.util.concurrent.DelayQueue", -1);
        check("concurrentLinked", "java.util.concurrent.ConcurrentLinkedQueue", -1);
        check("transfer", "java.util.concurrent.LinkedTransferQueue", -1);
        for (final java.util.concurrent.BlockingQueue<?> bounded : List.of(abq, lbq, lbd)) {
            assertEquals(bounded.remainingCapacity() + bounded.size(), only(bounded == abq ? "arrayBlocking"
                : bounded == lbq ? "linkedBlocking" : "linkedDeque").capacity(),
                () -> bounded.getClass() + ": the bound read from its final field is the one its contract gives");
        }
    }

    @Test
    void theBoundOfAnApplicationBlockingQueueIsWhatItsContractSays() {
        final QueueWorkloads.Bounded<Integer> bounded = QueueWorkloads.bounded(64);
        for (int i = 0; i < 10; i++) {
            bounded.add(i);
        }
        probe.sampleNow();
        final QueueStats q = only("bounded");
        assertEquals(64, q.capacity(), "remainingCapacity() plus size(), read once constructed, not when Base registered it");
        assertEquals(10, q.depth());
        assertEquals(10.0 / 64, q.utilisation(), 1e-9);
    }

    private static void check(final String method, final String type, final long capacity) {
        final QueueStats q = only(method);
        assertEquals(type, q.type(), method);
        assertEquals("queue", q.kind(), method);
        assertEquals(20, q.depth(), method);
        assertFalse(q.atLeast(), method);
        assertEquals(capacity, q.capacity(), method);
        assertEquals(10, q.dequeued(), method);
        assertEquals(30, q.enqueued(), method);
        if (capacity > 0) {
            assertEquals(capacity - 20, q.remaining(), method);
            assertEquals(20.0 / capacity, q.utilisation(), 1e-9, method);
        }
    }

    @Test
    void chainedConstructorsRegisterOneQueue() {
        final LinkedBlockingQueue<Integer> chained = QueueWorkloads.linkedBlocking();
        chained.add(1);
        probe.sampleNow();
        assertEquals(1, only("linkedBlocking").depth());
        assertEquals(-1, only("linkedBlocking").capacity(), "Integer.MAX_VALUE is no bound");
    }

    private static void runOn(final String threadName, final Runnable action) throws InterruptedException {
        final Thread thread = new Thread(action, threadName);
        thread.start();
        thread.join();
    }

    @Test
    void queuesTheJdkAloneMadeAreCountedAsItsOwnExceptOnJfrsThreads() throws InterruptedException {
        final long before = probe.snapshot().jdkInternal();
        // a constructor reference runs on no frame of this class: the JDK's frames alone
        runOn("host", LinkedBlockingQueue::new);
        assertEquals(before + 1, probe.snapshot().jdkInternal(), "the JDK's own");
        runOn("JFR Periodic Tasks", LinkedBlockingQueue::new);
        assertEquals(before + 1, probe.snapshot().jdkInternal(), "JFR's bookkeeping, on its own thread: not counted");
    }

    @Test
    void queuesMechMadeAreNeitherTrackedNorCounted() throws InterruptedException {
        final long before = probe.snapshot().jdkInternal();
        final List<Object> kept = new CopyOnWriteArrayList<>();
        // mech's code (this class is io.mech's) on a host thread
        runOn("host", () -> kept.add(new ArrayBlockingQueue<Integer>(1)));
        // the application's code on mech's threads, an executor too
        runOn("mech-test", () -> kept.add(QueueWorkloads.arrayBlocking(2)));
        runOn("mech-test", () -> kept.add(QueueWorkloads.fixedPool(1)));
        // the application's code on JFR's thread, as a periodic-event hook runs: the application's
        runOn("JFR Periodic Tasks", () -> kept.add(QueueWorkloads.arrayBlocking(3)));
        probe.sampleNow();
        try {
            final QueueSnapshot now = probe.snapshot();
            assertEquals(4, kept.size());
            assertEquals(before, now.jdkInternal(), "mech's queues are not the JDK's own either");
            assertEquals(List.of(3L), at("arrayBlocking").stream().map(QueueStats::capacity).toList(), () -> now.toString());
            assertEquals(List.of(), at("fixedPool"), () -> now.toString());
            assertTrue(now.queues().stream().noneMatch(q -> q.site().startsWith("io.mech.")), () -> now.toString());
        } finally {
            for (final Object made : kept) {
                if (made instanceof ExecutorService) {
                    ((ExecutorService) made).shutdown();
                }
            }
        }
    }

    @Test
    void mechsOwnClassesAreNeverWovenWhateverTheInclude() {
        for (final String include : List.of("io", "io.mech", "io.mech.probes")) {
            final QueueWeaver weaver = new QueueWeaver("java/util/concurrent/Bridge",
                new QueueSettings(List.of(include), QueueSettings.MAX_SAMPLE_NANOS, 0.7, 10_000).internalPrefixes());
            assertFalse(weaver.applicationCandidate("io/mech/probes/queues/TrackedQueue"), include);
            assertFalse(weaver.applicationCandidate("io/mech/shaded/org/jctools/queues/MpscArrayQueue"), include);
        }
        final QueueWeaver examples = new QueueWeaver("java/util/concurrent/Bridge",
            new QueueSettings(List.of("io.mech"), QueueSettings.MAX_SAMPLE_NANOS, 0.7, 10_000).internalPrefixes());
        assertTrue(examples.applicationCandidate("io/mech/examples/backpressure/BoundedPipeline"), "the kernels are the user's");
        assertTrue(examples.applicationCandidate("org/jctools/queues/MpscArrayQueue"));
    }

    @Test
    void relocatedQueueLibrariesAndBlockingQueuesAnywhereAreCandidates() {
        final QueueWeaver weaver = new QueueWeaver("java/util/concurrent/Bridge",
            new QueueSettings(List.of("com.example"), QueueSettings.MAX_SAMPLE_NANOS, 0.7, 10_000).internalPrefixes());
        assertTrue(weaver.applicationCandidate("io/netty/util/internal/shaded/org/jctools/queues/MpscUnboundedArrayQueue"),
            "Netty's relocated JCTools");
        assertTrue(weaver.applicationCandidate("io/netty/util/internal/shaded/org/jctools/queues/atomic/MpscUnboundedAtomicArrayQueue"));
        assertTrue(weaver.applicationCandidate("shaded/org/agrona/concurrent/OneToOneConcurrentArrayQueue"));
        assertFalse(weaver.applicationCandidate("shaded/org/agrona/concurrent/status/AtomicCounter"), "not Agrona's queues' package");
        assertFalse(weaver.applicationCandidate("io/netty/util/internal/MathUtil"));
        assertFalse(weaver.applicationCandidate("com/acme/xorg/jctools/queues/Q"), "a package name that merely ends alike");
        assertTrue(QueueTypes.isLibraryType("io.netty.util.internal.shaded.org.jctools.queues.MessagePassingQueue",
            "org.jctools.queues.MessagePassingQueue"));
        assertFalse(QueueTypes.isLibraryType("com.acme.Xorg.jctools.queues.MessagePassingQueue", "org.jctools.queues.MessagePassingQueue"));

        assertTrue(weaver.applicationCandidate("org/eclipse/jetty/util/BlockingArrayQueue",
            header("org/eclipse/jetty/util/BlockingArrayQueue", "java/util/AbstractList", "java/util/concurrent/BlockingQueue")),
            "a blocking queue in any package, by what it declares");
        assertFalse(weaver.applicationCandidate("org/eclipse/jetty/util/ArrayTernaryTrie",
            header("org/eclipse/jetty/util/ArrayTernaryTrie", "java/lang/Object", "java/util/RandomAccess")));
        assertFalse(weaver.applicationCandidate("io/mech/probes/queues/Job",
            header("io/mech/probes/queues/Job", "java/lang/Object", "java/util/concurrent/BlockingQueue")), "never mech's own");
    }

    /** @return the bytes of an empty class of that name, superclass and interface */
    private static byte[] header(final String name, final String superName, final String anInterface) {
        final net.bytebuddy.jar.asm.ClassWriter writer = new net.bytebuddy.jar.asm.ClassWriter(0);
        writer.visit(net.bytebuddy.jar.asm.Opcodes.V17, net.bytebuddy.jar.asm.Opcodes.ACC_PUBLIC | net.bytebuddy.jar.asm.Opcodes.ACC_ABSTRACT,
            name, null, superName, new String[] {anInterface});
        writer.visitEnd();
        return writer.toByteArray();
    }

    /**
     * Counted from its slot field (loaded after the probe started) and from its identity hash (the
     * same class loaded before, by a loader of its own, so it has no field). Its methods are
     * synchronized: the hash of a locked object is the costly case the field avoids.
     */
    @ParameterizedTest(name = "loaded before the probe: {0}")
    @ValueSource(booleans = {false, true})
    @SuppressWarnings("unchecked")
    void countsOffersAndPollsOfAnIncludedQueueClass(final boolean loadedBefore) throws ReflectiveOperationException {
        final Queue<Integer> counted = loadedBefore
            ? (Queue<Integer>) EARLY.getMethod("counted").invoke(null) : QueueWorkloads.counted();
        assertEquals(!loadedBefore, slotField(counted.getClass()), "a slot field only where the class loaded after the probe");
        for (int i = 0; i < 25; i++) {
            counted.add(i);
        }
        for (int i = 0; i < 5; i++) {
            counted.poll();
        }
        probe.sampleNow();
        final QueueStats q = only("counted");
        assertEquals(QueueStats.UNKNOWN, q.capacity(), "a Queue that promises no bound: unknown, never guessed");
        assertTrue(q.site().startsWith("workloads.QueueWorkloads.counted:"), q.site());
        assertEquals(20, q.depth());
        assertEquals(25, q.enqueued());
        assertEquals(5, q.dequeued());
        assertEquals(counted.size(), q.depth());
        while (counted.poll() != null) {
            Thread.onSpinWait();
        }
        counted.poll();
        probe.sampleNow();
        assertEquals(0, only("counted").depth());
        assertEquals(25, only("counted").dequeued(), "a poll of nothing is no dequeue");
    }

    /**
     * A blocking queue in a package no include names is found by what it declares; every way a
     * job leaves that the class implements is counted (timed poll, take), the timed offer and put
     * once each though they call offer; a removal no counting sees is caught by its plain size():
     * corrected once it held for two samples, never on the first.
     */
    @Test
    void aServersJobQueueIsFoundCountedOnEveryPathAndHeldToItsSize() throws Exception {
        final jobs.JobQueue<Integer> jobs = QueueWorkloads.jobs();
        for (int i = 0; i < 4; i++) {
            jobs.offer(i);
        }
        jobs.put(4);
        jobs.offer(5, 1, TimeUnit.SECONDS);
        assertEquals(0, jobs.poll(1, TimeUnit.SECONDS));
        assertEquals(1, jobs.take());
        assertEquals(2, jobs.poll());
        probe.sampleNow();
        final long correctedBefore = probe.snapshot().corrected();
        QueueStats q = only("jobs");
        assertEquals("jobs.JobQueue", q.type());
        assertEquals(QueueStats.UNBOUNDED, q.capacity(), "remaining capacity Integer.MAX_VALUE: " + q);
        assertEquals(6, q.enqueued(), "each enqueue once: " + q);
        assertEquals(3, q.dequeued(), "timed poll, take and poll: " + q);
        assertEquals(3, q.depth());
        assertTrue(jobs.remove(4));
        probe.sampleNow();
        q = only("jobs");
        assertEquals(2, q.depth(), "the size is the depth: " + q);
        assertEquals(3, q.dequeued(), "a gap seen once is not corrected yet: " + q);
        assertEquals(correctedBefore, probe.snapshot().corrected());
        probe.sampleNow();
        q = only("jobs");
        assertEquals(4, q.dequeued(), "the removal no counting saw, once the gap held: " + q);
        assertEquals(correctedBefore + 1, probe.snapshot().corrected());
        probe.sampleNow();
        assertEquals(correctedBefore + 1, probe.snapshot().corrected(), "corrected once");
        assertEquals(4, only("jobs").dequeued());
    }

    /** A debugger's hot swap hands over the class file without the field; dropping it would fail the swap. */
    @Test
    void aClassWithTheSlotFieldCanStillBeRedefined() throws Exception {
        final Class<?> counted = Class.forName("workloads.QueueWorkloads$Counted");
        final String resource = counted.getName().replace('.', '/') + ".class";
        final byte[] original;
        try (InputStream in = counted.getClassLoader().getResourceAsStream(resource)) {
            original = in.readAllBytes();
        }
        ByteBuddyAgent.install().redefineClasses(new ClassDefinition(counted, original));
        assertTrue(slotField(counted));
        countsOffersAndPollsOfAnIncludedQueueClass(false);
    }

    @Test
    void executorQueuedTasksAreItsQueueSizeAndActiveItsRunningTasks() throws Exception {
        final ExecutorService pool = QueueWorkloads.fixedPool(2);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch started = new CountDownLatch(2);
        try {
            for (int i = 0; i < 12; i++) {
                pool.execute(() -> {
                    started.countDown();
                    try {
                        release.await();
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            assertTrue(started.await(10, TimeUnit.SECONDS));
            probe.sampleNow();
            final QueueStats q = only("fixedPool");
            assertEquals("executor", q.kind());
            assertEquals("java.util.concurrent.ThreadPoolExecutor", q.type());
            assertEquals("java.util.concurrent.LinkedBlockingQueue", q.queueType());
            assertEquals(((ThreadPoolExecutor) pool).getQueue().size(), q.depth());
            assertEquals(10, q.depth());
            assertEquals(2, q.active(), () -> q + " getActiveCount " + ((ThreadPoolExecutor) pool).getActiveCount());
        } finally {
            release.countDown();
            pool.shutdown();
            assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void anUnreferencedQueueLeavesTheRegistryAfterGc() {
        ConcurrentLinkedQueue<Integer> dropped = QueueWorkloads.concurrentLinked();
        dropped.add(1);
        probe.sampleNow();
        assertEquals(1, at("concurrentLinked").size());
        final long released = probe.snapshot().released();
        dropped = null;
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        probe.sampleNow();
        assertEquals(0, at("concurrentLinked").size(), () -> probe.snapshot().toString());
        assertTrue(probe.snapshot().released() > released);
        assertTrue(probe.snapshot().collected().stream().anyMatch(q -> q.site().contains("concurrentLinked") && q.maxDepth() == 1),
            () -> "its last figures stay for the report: " + probe.snapshot());
    }

    @Test
    void aFullBoundedQueueAlertsOnceWithItsSiteAfterThreeSamples() {
        final ArrayBlockingQueue<Integer> full = QueueWorkloads.arrayBlocking(10);
        for (int i = 0; i < 8; i++) {
            full.add(i);
        }
        ALERTS.clear();
        probe.sampleNow();
        probe.sampleNow();
        assertTrue(ALERTS.isEmpty(), "two samples are not yet an episode");
        probe.sampleNow();
        probe.sampleNow();
        final List<QueueAlert> mine = ALERTS.stream().filter(a -> a.site().startsWith("workloads.QueueWorkloads.arrayBlocking:")).toList();
        assertEquals(1, mine.size(), ALERTS.toString());
        assertEquals("full", mine.get(0).reason());
        assertEquals(8, mine.get(0).depth());
        assertEquals("full", only("arrayBlocking").alerting());
        full.clear();
        probe.sampleNow();
        assertEquals("", only("arrayBlocking").alerting(), "re-armed below the alert level");
    }

    @Test
    void anUnboundedQueueThatKeepsGrowingAlerts() {
        final ConcurrentLinkedQueue<Integer> growing = QueueWorkloads.concurrentLinked();
        ALERTS.clear();
        for (int sample = 0; sample < 7; sample++) {
            for (int i = 0; i < 50; i++) {
                growing.add(i);
            }
            probe.sampleNow();
        }
        assertTrue(ALERTS.stream().anyMatch(a -> a.reason().equals("growing") && a.depth() >= 250), ALERTS.toString());
    }

    @Test
    void aDeepLinkedQueueReadsAsAtLeastTheWalkBound() {
        final ConcurrentLinkedQueue<Integer> deep = QueueWorkloads.concurrentLinked();
        for (int i = 0; i < JdkFields.WALK_BOUND + 500; i++) {
            deep.add(i);
        }
        probe.sampleNow();
        final QueueStats q = only("concurrentLinked");
        assertEquals(JdkFields.WALK_BOUND, q.depth());
        assertTrue(q.atLeast());
    }

    /** If the sampler took a queue's lock it would block here, held by this thread: it must read on. */
    @Test
    void samplingTakesNoQueueLock() throws Throwable {
        final ArrayBlockingQueue<Integer> abq = QueueWorkloads.arrayBlocking(10);
        final LinkedBlockingDeque<Integer> lbd = QueueWorkloads.linkedDeque(10);
        final PriorityBlockingQueue<Integer> pbq = QueueWorkloads.priority();
        final LinkedBlockingQueue<Integer> lbq = QueueWorkloads.linkedBlocking(10);
        abq.add(1);
        lbd.add(1);
        pbq.add(1);
        lbq.add(1);
        final List<ReentrantLock> locks = List.of(lock(ArrayBlockingQueue.class, "lock", abq), lock(LinkedBlockingDeque.class, "lock", lbd),
            lock(PriorityBlockingQueue.class, "lock", pbq), lock(LinkedBlockingQueue.class, "putLock", lbq),
            lock(LinkedBlockingQueue.class, "takeLock", lbq));
        locks.forEach(ReentrantLock::lock);
        try {
            final Thread sampler = new Thread(probe::sampleNow, "test-sampler");
            sampler.start();
            sampler.join(10_000);
            assertFalse(sampler.isAlive(), "the sample blocked on a queue lock this thread holds");
            for (final ReentrantLock lock : locks) {
                assertEquals(0, lock.getQueueLength(), "no thread queued for " + lock);
            }
        } finally {
            locks.forEach(ReentrantLock::unlock);
        }
        assertEquals(1, only("arrayBlocking").depth());
        assertEquals(1, only("linkedDeque").depth());
        assertEquals(1, only("priority").depth());
        assertEquals(1, only("linkedBlocking").depth());
    }

    private static ReentrantLock lock(final Class<?> owner, final String field, final Object queue) throws Throwable {
        return (ReentrantLock) MethodHandles.privateLookupIn(owner, MethodHandles.lookup())
            .findGetter(owner, field, ReentrantLock.class).invoke(queue);
    }

    @Test
    void steadySamplingAllocatesNothing() {
        final ArrayBlockingQueue<Integer> abq = QueueWorkloads.arrayBlocking(10);
        final ConcurrentLinkedQueue<Integer> clq = QueueWorkloads.concurrentLinked();
        final QueueWorkloads.Counted<Integer> counted = QueueWorkloads.counted();
        final LinkedBlockingQueue<Integer> lbq = QueueWorkloads.linkedBlocking(10);
        final DelayQueue<QueueWorkloads.Delay> dq = QueueWorkloads.delay();
        abq.add(1);
        clq.add(1);
        counted.add(1);
        lbq.add(1);
        dq.add(new QueueWorkloads.Delay());
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long self = Thread.currentThread().getId();
        for (int i = 0; i < 20_000; i++) {
            probe.sampleNow();
        }
        final long before = threads.getThreadAllocatedBytes(self);
        for (int i = 0; i < 10_000; i++) {
            probe.sampleNow();
        }
        final long allocated = threads.getThreadAllocatedBytes(self) - before;
        assertTrue(allocated < 1_000, "10,000 samples allocated " + allocated + " bytes");
        assertEquals(1, only("delay").depth());
    }
}
