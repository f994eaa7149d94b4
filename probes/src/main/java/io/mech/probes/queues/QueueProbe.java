package io.mech.probes.queues;

import io.mech.probes.Periodic;
import io.mech.probes.weave.JdkBridge;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * Depth, capacity, rates and Little's-law wait of every queue and executor the application
 * creates (issue 9).
 *
 * <p>Finding queues: code woven into the constructors of the JDK's queues, ThreadPoolExecutor,
 * JCTools', Agrona's and the Disruptor's queues and the included packages' queue classes hands
 * each new instance to a {@link QueueRegistry} through a bridge in {@code java.util.concurrent}
 * ({@link QueueWeaver}, {@link QueueBridge}). Sampling: a daemon thread, {@code mech-queues-sampler}, reads each
 * queue's count without its lock ({@link JdkFields}, {@link Shape}), and its bound and a library
 * queue's own counts from what its API promises ({@link Contract}), every sample period; woven
 * counting of dequeues gives the other queues' rates. A queue class loaded while the probe runs (an
 * application's, or one of the JDK's when the probe starts in premain) gets a field of its own
 * for its counters' slot ({@link SlotField}), which the JVM keeps when the probe closes.
 *
 * <p>Guarantees: {@link #start} never throws into the host; the weaving is installed on the
 * caller's thread or on a daemon thread, {@code mech-queues-install}, as asked. A queue created
 * before the weaving is in place is not seen. {@link #snapshot} may be called from any thread; listeners are called on
 * the sampler thread, each alert once per episode. {@link #close} stops the sampler and takes the
 * weaving out (queues already created keep no trace of mech beyond a bridge call that counts
 * into a slot no one reads).
 */
public final class QueueProbe implements AutoCloseable {

    /** Receives back-pressure alerts. */
    public interface Listener {
        /** @param alert an episode that starts now; called on the sampler thread, keep it short */
        void backPressure(QueueAlert alert);
    }

    /** {@code Collection.size()} as {@code (Object)int}: read only where {@link QueueMethods} found it a plain read. */
    private static final MethodHandle SIZE;

    static {
        try {
            SIZE = MethodHandles.publicLookup().findVirtual(Collection.class, "size", MethodType.methodType(int.class))
                .asType(MethodType.methodType(int.class, Object.class));
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final QueueSettings settings;
    private final Consumer<String> warnings;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final CountDownLatch installed = new CountDownLatch(1);
    private final Object sampling = new Object();
    private final ArrayDeque<QueueAlert> alerts = new ArrayDeque<>();
    /** Guarded by {@code sampling}. */
    private final CollectedQueues collected = new CollectedQueues();
    private final List<QueueAlert> raised = new ArrayList<>();
    /** Depths corrected to a queue's own size(): see {@link #reconcile}; guarded by {@code sampling}. */
    private long corrected;
    private volatile boolean closed;
    /*
     * The install state: written once by the installing thread (the host's in premain, else
     * mech-queues-install) and read by snapshot callers, the sampler and close, on any thread.
     * Each field is volatile, so a reader sees it whole once set; the sampler thread, started
     * after all of them are set, sees them all (Thread.start happens before its first action).
     */
    private volatile Instrumentation inst;
    private volatile QueueWeaver weaver;
    private volatile SlotField slotField;
    private volatile Class<?> bridge;
    private volatile QueueRegistry registry;
    private volatile JdkFields fields;
    /** The sampler, a {@link Periodic} runner; null until the weaving is in place. */
    private volatile Periodic sampler;

    private QueueProbe(final QueueSettings settings, final Consumer<String> warnings) {
        this.settings = settings;
        this.warnings = warnings;
    }

    /**
     * Starts the probe: weaving, then sampling on {@code mech-queues-sampler}.
     *
     * @param inst     the agent's Instrumentation; null only warns
     * @param settings what to include and how often to sample
     * @param now      weave on the caller's thread before returning (premain: queues the host
     *                 creates first are seen, at the cost of the weaving's start-up); else on
     *                 {@code mech-queues-install}
     * @param warnings receives one line for each problem
     * @return the probe (it may end up not installed: see {@link #awaitInstalled}), or null when it cannot start
     */
    public static QueueProbe start(final Instrumentation inst, final QueueSettings settings, final boolean now,
                                   final Consumer<String> warnings) {
        if (inst == null || !inst.isRetransformClassesSupported()) {
            warnings.accept("the agent cannot retransform classes; no queue probe");
            return null;
        }
        try {
            final QueueProbe probe = new QueueProbe(settings, warnings);
            if (now) {
                probe.install(inst);
                return probe;
            }
            final Thread installer = new Thread(() -> probe.install(inst), "mech-queues-install");
            installer.setDaemon(true);
            installer.start();
            return probe;
        } catch (final RuntimeException | LinkageError e) {
            warnings.accept("queue probe not started (" + e + ")");
            return null;
        }
    }

    private void install(final Instrumentation instrumentation) {
        try {
            final JdkBridge template = new JdkBridge(ConcurrentHashMap.class, QueueBridge.class);
            final QueueWeaver made2 = new QueueWeaver(template.name().replace('.', '/'), settings.internalPrefixes());
            final SlotField slots = new SlotField(made2);
            synchronized (sampling) {
                if (closed) {
                    return;
                }
                inst = instrumentation;
                slotField = slots;
            }
            // first: the JDK's queue classes that no one has loaded yet (JdkFields loads them) get the field
            instrumentation.addTransformer(slots, false);
            final Class<?> defined = template.define(instrumentation);
            final int[] owners = (int[]) defined.getMethod("owners").invoke(null);
            final long[] cells = (long[]) defined.getMethod("cells").invoke(null);
            final JdkFields jdk = new JdkFields();
            final QueueRegistry made = new QueueRegistry(owners, cells, settings.sampleNanos(), settings.binaryPrefixes());
            synchronized (sampling) {
                if (closed) {
                    // a close that ran before the transformer was added could not take it out
                    instrumentation.removeTransformer(slots);
                    return;
                }
                bridge = defined;
                fields = jdk;
                registry = made;
                weaver = made2;
            }
            defined.getMethod("open", ToIntFunction.class).invoke(null, made);
            instrumentation.addTransformer(made2, true);
            instrumentation.retransformClasses(targets(instrumentation, made2));
            if (made2.failure != null) {
                throw made2.failure;
            }
            if (slots.failure != null) {
                throw slots.failure;
            }
            // after every install field is set: the runner's thread start publishes them to it
            sampler = Periodic.start("mech-queues-sampler", settings.sampleNanos(), false, this::sampleNow, warnings);
        } catch (final Throwable e) {
            warnings.accept("queue probe not installed (" + e + "); no queues section");
            close();
        } finally {
            installed.countDown();
        }
    }

    /** The loaded classes to weave: the JDK's queues and executor, and application queue classes. */
    private static Class<?>[] targets(final Instrumentation inst, final QueueWeaver weaver) {
        final List<Class<?>> targets = new ArrayList<>();
        for (final Class<?> loaded : inst.getAllLoadedClasses()) {
            final String name = loaded.getName().replace('.', '/');
            final boolean jdk = loaded.getClassLoader() == null
                && (QueueWeaver.JDK.containsKey(name) || name.equals(QueueWeaver.DELAYED_WORK_QUEUE));
            final boolean application = loaded.getClassLoader() != null && weaver.applicationCandidate(loaded)
                && QueueTypes.of(loaded) != QueueTypes.Kind.NONE;
            if ((jdk || application) && inst.isModifiableClass(loaded)) {
                targets.add(loaded);
            }
        }
        return targets.toArray(new Class<?>[0]);
    }

    /**
     * Waits until the weaving is in place or has failed.
     *
     * @return true when the probe samples
     */
    public boolean awaitInstalled(final Duration timeout) throws InterruptedException {
        installed.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        return sampler != null && !closed;
    }

    /** @param listener receives each back-pressure episode from now on */
    public void addListener(final Listener listener) {
        listeners.add(listener);
    }

    /**
     * Takes one sample of every registered queue now (the sampler does so every period; the
     * final report calls it once more), and tells the listeners of alerts it raised.
     */
    public void sampleNow() {
        final QueueRegistry from = registry;
        if (from == null) {
            return;
        }
        synchronized (sampling) {
            final long now = System.nanoTime();
            for (int slot = 0; slot < QueueBridge.SLOTS; slot++) {
                final TrackedQueue entry = from.at(slot);
                if (entry != null) {
                    sample(from, entry, now);
                }
            }
        }
        notifyRaised();
    }

    private void sample(final QueueRegistry from, final TrackedQueue entry, final long now) {
        final Object queue = entry.queue.get();
        if (queue == null) {
            retire(entry);
            from.release(entry.slot);
            return;
        }
        if (entry.contract == null) {
            resolve(entry, queue);
        }
        long depth;
        long capacity;
        long dequeues = entry.shape.countsDequeues ? from.dequeues(entry.slot) : -1;
        long enqueues = -1;
        try {
            // the JDK's own queues first: their bound is a final field, read without their lock
            capacity = fields.capacity(entry.shape, queue);
            if (capacity == QueueStats.UNKNOWN && entry.contract.knowsCapacity()) {
                capacity = entry.contract.capacity(queue);
            }
            if (capacity == QueueStats.UNKNOWN) {
                // a blocking queue whose size moved under every try keeps the bound it was last read with
                capacity = entry.capacity;
            }
            if (entry.shape == Shape.COUNTED) {
                final long countedIn = from.enqueues(entry.slot);
                // the size, read first: reconciling it moves uncounted elements into the counts added below
                final long size = entry.sizeCheck == null ? -1
                    : reconcile(entry, queue, countedIn + entry.enqueuesUncounted, dequeues + entry.dequeuesUncounted);
                enqueues = countedIn + entry.enqueuesUncounted;
                dequeues += entry.dequeuesUncounted;
                depth = size >= 0 ? size : Math.max(0, enqueues - dequeues);
            } else if (entry.shape == Shape.PROGRESS) {
                final boolean counts = entry.contract.counts();
                // in before out: what left after the first read was in by then, so depth never passes the bound
                enqueues = counts ? entry.contract.produced(queue) : -1;
                dequeues = counts ? entry.contract.consumed(queue) : -1;
                depth = counts ? Math.max(0, enqueues - dequeues) : -1;
            } else {
                depth = fields.depth(entry.shape, queue, entry.holder);
            }
        } catch (final Throwable e) {
            capacity = entry.capacity;
            depth = -1;
        }
        entry.sample(now, capacity, depth, depth >= JdkFields.WALK_BOUND
            && (entry.shape == Shape.CONCURRENT_LINKED || entry.shape == Shape.LINKED_TRANSFER), dequeues, enqueues);
        final java.lang.ref.WeakReference<ThreadPoolExecutor> executor = entry.executor;
        final ThreadPoolExecutor pool = executor == null ? null : executor.get();
        // getActiveCount takes the executor's mainLock (never the queue's), which the pool takes only to add or remove workers
        entry.active = pool == null ? -1 : pool.getActiveCount();
        final String reason = entry.judge(settings.alert(), settings.deep(), QueueSettings.RUNS);
        if (reason != null) {
            final QueueAlert alert = new QueueAlert(System.currentTimeMillis(), pool == null ? "queue" : "executor",
                pool == null ? entry.type : entry.executorType, entry.site, reason, entry.depth, entry.capacity,
                entry.utilisation(), entry.growthPerSecond, entry.enqueueRate, entry.dequeueRate);
            raised.add(alert);
            alerts.addLast(alert);
            if (alerts.size() > QueueSnapshot.MAX_ALERTS) {
                alerts.removeFirst();
            }
        }
    }

    /**
     * Holds a counted queue's depth to its own {@code size()}, a plain read ({@link QueueMethods}):
     * the size is the depth. Where the counts disagree with it on two samples in a row, in the same
     * direction, elements moved by a way mech does not count (a {@code remove(Object)}, a
     * {@code clear}); the part of the gap that held is added to the counts, so rates take those
     * moves in, and the correction is counted. A gap seen once is a count still in flight, for a
     * count lands just after its element moved.
     */
    private long reconcile(final TrackedQueue entry, final Object queue, final long enqueues, final long dequeues) throws Throwable {
        final long size = (int) entry.sizeCheck.invokeExact(queue);
        final long gap = enqueues - dequeues - size;
        final long previous = entry.lastGap;
        entry.lastGap = gap;
        if (gap != 0 && Long.signum(gap) == Long.signum(previous)) {
            final long held = gap > 0 ? Math.min(gap, previous) : Math.max(gap, previous);
            if (held > 0) {
                entry.dequeuesUncounted += held;
            } else {
                entry.enqueuesUncounted -= held;
            }
            entry.lastGap = gap - held;
            corrected++;
        }
        return size;
    }

    /**
     * Finds, on the queue's first sample, what it is read through: its JDK holder and its
     * library's contract. A failure leaves the depth and bound unknown, never the sampler stopped.
     */
    private void resolve(final TrackedQueue entry, final Object queue) {
        entry.contract = Contract.of(queue.getClass());
        entry.sizeCheck = entry.shape == Shape.COUNTED && plainSize(queue.getClass()) ? SIZE : null;
        try {
            entry.holder = fields.holder(entry.shape, queue);
        } catch (final Throwable e) {
            entry.holder = null;
        }
    }

    /** @return whether the nearest class declaring the queue's {@code size()} declares it as a plain read */
    private boolean plainSize(final Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                c.getDeclaredMethod("size");
                return weaver.plainSize.contains(c.getName());
            } catch (final NoSuchMethodException e) {
                // inherited: look further up
            }
        }
        return false;
    }

    private void notifyRaised() {
        final List<QueueAlert> now;
        synchronized (sampling) {
            if (raised.isEmpty()) {
                return;
            }
            now = new ArrayList<>(raised);
            raised.clear();
        }
        for (final QueueAlert alert : now) {
            for (final Listener listener : listeners) {
                try {
                    listener.backPressure(alert);
                } catch (final RuntimeException e) {
                    warnings.accept("queue listener failed: " + e);
                }
            }
        }
    }

    /** @return what the probe knows now */
    public QueueSnapshot snapshot() {
        final QueueRegistry from = registry;
        if (from == null) {
            return new QueueSnapshot(false, settings.sampleNanos(), List.of(), List.of(), List.of(), 0, 0, 0, 0, 0);
        }
        synchronized (sampling) {
            final List<QueueStats> rows = new ArrayList<>();
            for (int slot = 0; slot < QueueBridge.SLOTS; slot++) {
                final TrackedQueue e = from.at(slot);
                if (e != null && e.samples > 0) {
                    rows.add(stats(e));
                }
            }
            rows.sort(Comparator.comparingLong(QueueStats::depth).reversed()
                .thenComparing(Comparator.comparingDouble((QueueStats q) -> Double.isNaN(q.growthPerSecond()) ? 0 : q.growthPerSecond()).reversed())
                .thenComparing(QueueStats::type).thenComparing(QueueStats::site));
            return new QueueSnapshot(sampler != null && !closed, settings.sampleNanos(), rows, collected.list(),
                new ArrayList<>(alerts), from.jdkInternal.get(), from.unnamed.get(), from.full.get(), from.released.get(), corrected);
        }
    }

    private static QueueStats stats(final TrackedQueue e) {
        final boolean executor = e.executor != null;
        return new QueueStats(executor ? "executor" : "queue", executor ? e.executorType : e.type, e.type, e.site,
            e.depth, e.atLeast, e.maxDepth, e.meanDepth, e.capacity, e.enqueued, e.dequeued, e.enqueueRate, e.dequeueRate,
            e.growthPerSecond, e.waitSeconds, e.windowSeconds, e.active, e.alerting == null ? "" : e.alerting,
            e.alerts, e.samples);
    }

    /** Keeps a collected queue's last figures for the report, if it was ever sampled. */
    private void retire(final TrackedQueue entry) {
        if (entry.samples > 0) {
            collected.add(stats(entry));
        }
    }

    /** Stops the sampler and takes the weaving out; never throws. */
    @Override
    public void close() {
        closed = true;
        final Periodic running = sampler;
        if (running != null) {
            running.close();
        }
        try {
            if (bridge != null) {
                bridge.getMethod("open", ToIntFunction.class).invoke(null, (Object) null);
            }
            if (slotField != null) {
                inst.removeTransformer(slotField);
            }
            if (weaver != null) {
                inst.removeTransformer(weaver);
                final List<Class<?>> woven = new ArrayList<>();
                for (final Class<?> loaded : inst.getAllLoadedClasses()) {
                    if (weaver.woven.contains(loaded.getName().replace('.', '/')) && inst.isModifiableClass(loaded)) {
                        woven.add(loaded);
                    }
                }
                if (!woven.isEmpty()) {
                    inst.retransformClasses(woven.toArray(new Class<?>[0]));
                }
            }
        } catch (final Throwable e) {
            warnings.accept("queue probe: weaving not removed (" + e + ")");
        }
    }
}
