package io.mech.probes.falsesharing;

import io.mech.probes.LiveThreads;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * False sharing, true sharing and cross-object sharing in the included packages (issue 10),
 * found without hardware counters.
 *
 * <p>Under {@code -javaagent} ({@code atLoad}) the probe weaves {@link Tally} calls into every
 * method of the included classes ({@link FieldWeaver}) as they load, from before {@code main},
 * with every woven call site linked to nothing, which the JIT compiles away; the window links
 * them to the counting code, which deoptimises the compiled code that inlined the empty target,
 * the on-stack-replaced loops that never return included, so they count too. The weaving stays
 * after the window, switched off. Attached to a running JVM, the probe instead weaves the loaded
 * included classes (and those yet to load) when the window opens and removes the weaving when it
 * ends: a method already running then keeps its old code. Within the window, counting is on for
 * {@value #BURST_MILLIS} ms of every {@value #PERIOD_MILLIS} ms, {@value #SETTLE_MILLIS} ms after
 * the woven call sites were linked to the counting code ({@link Tally#link}): the rates are counts
 * over the time counted, and between bursts the woven code compiles to what it was. It reads the real field layout through
 * {@code jdk.internal.misc.Unsafe} ({@link FieldLayout}) and judges what the window saw
 * ({@link SharingAnalysis}).
 *
 * <p>Guarantees: {@link #start} never throws into the host and returns at once; the work runs on
 * one daemon thread, {@code mech-falsesharing}. Every failure is one warning and leaves the host's
 * classes as they were. {@link #snapshot} and {@link #earlier} may be called from any thread at
 * any time; listeners hear on mech's thread when each window's verdicts are in. With
 * {@code every} the window repeats, each from where the weaving stands (at load: switched on
 * again; attached: woven again), its counters cleared first.
 */
public final class FalseSharingProbe implements AutoCloseable {

    /** Hears the verdicts of each window once they are in. */
    @FunctionalInterface
    public interface Listener {
        /** @param done the snapshot of a finished window */
        void windowDone(FalseSharingSnapshot done);
    }

    /** Earlier windows with verdicts that a report keeps: a day of windows every hour. */
    static final int EARLIER = 24;
    /** One counting burst, the settling before it and the pause after it. */
    static final long PERIOD_MILLIS = 2000;
    /** How long each burst counts. */
    static final long BURST_MILLIS = 50;
    /** From linking the counting methods to counting: the JIT's recompiling of the woven methods settles. */
    static final long SETTLE_MILLIS = 100;
    /** The first burst's settling: weaving at the window's start dropped every woven class's compiled code. */
    static final long FIRST_SETTLE_MILLIS = 400;

    private final Instrumentation inst;
    private final FalseSharingSettings settings;
    private final Consumer<String> warnings;
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final Thread worker;
    /** Whether the included classes are woven as they load, for the whole run (-javaagent). */
    private final boolean atLoad;
    private volatile FalseSharingSnapshot snapshot =
        new FalseSharingSnapshot(FalseSharingSnapshot.State.WAITING, 0, 0, 0, List.of(), List.of());
    /** Earlier windows that found something, oldest first, at most {@link #EARLIER}. */
    private final List<FalseSharingSnapshot> earlier = new CopyOnWriteArrayList<>();
    private final CountDownLatch cut = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private FieldWeaver weaver;
    /** The fields the weaving counts, from the first class woven (at load, or when the window opens). */
    private final FieldTable table = new FieldTable();
    /** The sites of the plain array instructions the weaving counts. */
    private final ArraySites sites = new ArraySites();

    private FalseSharingProbe(final Instrumentation inst, final FalseSharingSettings settings, final boolean atLoad,
                              final Consumer<String> warnings) {
        this.inst = inst;
        this.settings = settings;
        this.atLoad = atLoad;
        this.warnings = warnings;
        this.worker = new Thread(this::run, "mech-falsesharing");
        worker.setDaemon(true);
    }

    /**
     * Starts the probe: its window opens after the settings' delay.
     *
     * @param inst     the agent's instrumentation; the probe needs retransformation
     * @param settings included packages, delay and window
     * @param atLoad   weave the included classes as they load from now on, switched off until the
     *                 window, and keep the weaving after it (-javaagent, called before main); else
     *                 weave the loaded classes for the window only (attach)
     * @param warnings receives one line for each problem
     * @return the probe, or null (after a warning) when it cannot run
     */
    public static FalseSharingProbe start(final Instrumentation inst, final FalseSharingSettings settings, final boolean atLoad,
                                          final Consumer<String> warnings) {
        try {
            if (inst == null || !inst.isRetransformClassesSupported()) {
                warnings.accept("false-sharing probe needs an agent that can retransform classes; not started");
                return null;
            }
            final FalseSharingProbe probe = new FalseSharingProbe(inst, settings, atLoad, warnings);
            if (atLoad) {
                probe.weave();
            }
            probe.worker.start();
            return probe;
        } catch (final Throwable t) {
            warnings.accept("false-sharing probe not started: " + t);
            return null;
        }
    }

    /** @param listener hears each window's verdicts once they are in (the latest at once, if one is) */
    public void addListener(final Listener listener) {
        listeners.add(listener);
        if (snapshot.state() == FalseSharingSnapshot.State.DONE) {
            listener.windowDone(snapshot);
        }
    }

    /** @return what the probe knows now: the latest finished window once there is one */
    public FalseSharingSnapshot snapshot() {
        return snapshot;
    }

    /** @return the windows before the latest that found something, oldest first, at most 24 */
    public List<FalseSharingSnapshot> earlier() {
        return List.copyOf(earlier);
    }

    private void run() {
        try {
            if (!cut.await(settings.delayNanos(), TimeUnit.NANOSECONDS)) {
                long next = System.nanoTime();
                do {
                    next += settings.everyNanos();
                    window();
                } while (settings.everyNanos() > 0 && !cut.await(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final Throwable t) {
            warnings.accept("false-sharing probe stopped: " + t);
        } finally {
            unweave();
            finished.countDown();
        }
    }

    private void window() throws Exception {
        final InternalUnsafe unsafe = InternalUnsafe.open(inst);
        final FieldLayout layout = new FieldLayout(unsafe, Addresses.objectAlignment());
        Tally.sampleWith(new Addresses(unsafe, Tally.STRIPES));
        final FieldWeaver woven = atLoad ? woven() : weave();
        final int classes = atLoad ? woven.woven() : retransform(woven);
        Tally.clear();
        if (snapshot.state() == FalseSharingSnapshot.State.WAITING) {
            snapshot = new FalseSharingSnapshot(FalseSharingSnapshot.State.MEASURING, 0, classes, table.refs().size() - 1,
                List.of(), List.of());
        }
        final Map<Long, String> names = new HashMap<>();
        final long start = System.nanoTime();
        final Samples samples = new Samples();
        final TurnTaking turns = new TurnTaking(Path.of("/proc/self/task"));
        final long counted = countInBursts(start + settings.windowNanos(), names, samples, turns);
        final long[] cells = Tally.cells().clone();
        final long[] slots = Tally.slots().clone();
        final double seconds = (System.nanoTime() - start) / 1e9;
        threadNames(names);
        final int wovenClasses = atLoad ? woven.woven() : unweave();
        final List<FieldLayout.Placed> fields = resolve(table.refs(), layout);
        final Set<Field> used = new HashSet<>();
        for (final FieldLayout.Placed field : fields) {
            if (field != null) {
                used.add(field.field());
            }
        }
        final List<LayoutCandidate> candidates = new ArrayList<>();
        for (final Class<?> type : included(woven)) {
            candidates.addAll(layout.candidates(type, used::contains));
        }
        final List<Verdict> verdicts = new ArrayList<>(new SharingAnalysis(layout).analyse(cells, samples, fields, counted / 1e9, names));
        verdicts.addAll(new SlotAnalysis(layout, unsafe, sites).analyse(slots, counted / 1e9, names));
        verdicts.sort(SharingAnalysis.WORST_FIRST);
        final FalseSharingSnapshot done = new FalseSharingSnapshot(FalseSharingSnapshot.State.DONE, seconds,
            Math.max(classes, wovenClasses), fields.size() - 1, candidates, verdicts, System.currentTimeMillis(),
            SlotAnalysis.counted(slots), notCounted(woven, slots, turns));
        final FalseSharingSnapshot previous = snapshot;
        if (previous.state() == FalseSharingSnapshot.State.DONE && !previous.verdicts().isEmpty()) {
            earlier.add(previous);
            if (earlier.size() > EARLIER) {
                earlier.remove(0);
            }
        }
        snapshot = done;
        for (final Listener listener : listeners) {
            try {
                listener.windowDone(done);
            } catch (final RuntimeException e) {
                warnings.accept("false-sharing listener failed: " + e);
            }
        }
    }

    /**
     * Turns counting on in bursts until the window ends or is cut, listing thread names after each
     * burst, so that threads counted in it and ended before the window's end still have names, and
     * taking each burst's address samples with the collections around it and the host's turn-taking
     * on the cores over it.
     *
     * @return the nanoseconds counting was on
     */
    private long countInBursts(final long end, final Map<Long, String> names, final Samples samples, final TurnTaking turns)
        throws InterruptedException {
        final long burst = TimeUnit.MILLISECONDS.toNanos(BURST_MILLIS);
        long settle = TimeUnit.MILLISECONDS.toNanos(FIRST_SETTLE_MILLIS);
        final long pause = TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS - SETTLE_MILLIS - BURST_MILLIS);
        long counted = 0;
        while (true) {
            final boolean cutNow;
            long on = System.nanoTime();
            Tally.link(true);
            try {
                final boolean settledCut = cut.await(Math.min(settle, Math.max(0, end - on)), TimeUnit.NANOSECONDS);
                turns.begin();
                on = System.nanoTime();
                final long gcBefore = Samples.collections();
                Tally.count(true);
                try {
                    cutNow = settledCut || cut.await(Math.min(burst, Math.max(0, end - on)), TimeUnit.NANOSECONDS);
                } finally {
                    Tally.count(false);
                    counted += System.nanoTime() - on;
                    turns.end();
                    samples.take(Tally.cells(), gcBefore, Samples.collections());
                    threadNames(names);
                }
            } finally {
                Tally.link(false);
            }
            settle = TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
            final long left = end - System.nanoTime();
            if (cutNow || left <= 0 || cut.await(Math.min(left, pause), TimeUnit.NANOSECONDS)) {
                return Math.max(counted, 1);
            }
        }
    }

    /**
     * What the window did not look at: the accesses the weaver met and could not count, the slot
     * accesses lost to full tables, sharing hidden by threads taking turns on a busy machine's
     * cores, and always what lies outside the weaving.
     */
    private List<String> notCounted(final FieldWeaver woven, final long[] slots, final TurnTaking turns) {
        final List<String> phrases = new ArrayList<>(woven.uncounted().phrases());
        final long lost = SlotAnalysis.lost(slots);
        if (lost > 0) {
            phrases.add(lost + " array slot accesses a thread's table of " + Tally.SLOT_ENTRIES + " slots had no room for");
        }
        final String turnTaking = turns.phrase();
        if (turnTaking != null) {
            phrases.add(turnTaking);
        }
        phrases.add("code outside " + String.join(", ", settings.include()) + ", constructors and static initialisers");
        return phrases;
    }

    private synchronized FieldWeaver woven() {
        return weaver;
    }

    /** Adds the weaving transformer; at load, for the rest of the run, else for the window. */
    private FieldWeaver weave() {
        final FieldWeaver woven = new FieldWeaver(settings.internalPrefixes(), table, sites, warnings);
        synchronized (this) {
            weaver = woven;
        }
        inst.addTransformer(woven, true);
        return woven;
    }

    private int retransform(final FieldWeaver woven) {
        int count = 0;
        for (final Class<?> type : included(woven)) {
            try {
                inst.retransformClasses(type);
                count++;
            } catch (final Throwable t) {
                warnings.accept("false-sharing probe: " + type.getName() + " not retransformed (" + t + ")");
            }
        }
        return count;
    }

    private List<Class<?>> included(final FieldWeaver woven) {
        final List<Class<?>> found = new ArrayList<>();
        for (final Class<?> type : inst.getAllLoadedClasses()) {
            if (type.getClassLoader() != null && !type.isInterface() && !type.isArray() && !type.isHidden()
                && inst.isModifiableClass(type) && woven.includes(type.getName().replace('.', '/'))) {
                found.add(type);
            }
        }
        return found;
    }

    /**
     * Removes the weaving, at most once; returns how many classes were restored. Weaving done at
     * load stays, switched off: restoring it would drop the compiled code of every included class.
     */
    private int unweave() {
        final FieldWeaver woven;
        synchronized (this) {
            woven = weaver;
            weaver = atLoad ? woven : null;
        }
        if (woven == null || atLoad) {
            return 0;
        }
        inst.removeTransformer(woven);
        int count = 0;
        for (final Class<?> type : included(woven)) {
            try {
                inst.retransformClasses(type);
                count++;
            } catch (final Throwable t) {
                warnings.accept("false-sharing probe: " + type.getName() + " keeps its counting (" + t + ")");
            }
        }
        return count;
    }

    private static List<FieldLayout.Placed> resolve(final List<FieldTable.Ref> refs, final FieldLayout layout) {
        final List<FieldLayout.Placed> placed = new ArrayList<>();
        placed.add(null);
        for (int id = 1; id < refs.size(); id++) {
            final FieldTable.Ref ref = refs.get(id);
            FieldLayout.Placed field = null;
            try {
                field = layout.resolve(Class.forName(ref.owner().replace('/', '.'), false, ref.loader()), ref.name());
            } catch (final ClassNotFoundException | LinkageError e) {
                // a field of a class the loader no longer finds cannot be judged
            }
            placed.add(field);
        }
        return placed;
    }

    /** Adds the live threads' names. */
    private static void threadNames(final Map<Long, String> names) {
        for (final Thread thread : LiveThreads.list()) {
            @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
            final long id = thread.getId();
            names.put(id, thread.getName());
        }
    }

    /**
     * Ends an open window now and waits, until the deadline at most, for its verdicts, so that a
     * host that exits mid-window still gets them; a window not yet begun never begins.
     *
     * @param deadline the {@link System#nanoTime} by which to return, verdicts or not
     */
    public void settle(final long deadline) {
        cut.countDown();
        try {
            finished.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the probe; removes the weaving of an attached probe if the window is still open. */
    @Override
    public void close() {
        worker.interrupt();
        try {
            worker.join(TimeUnit.SECONDS.toMillis(5));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        unweave();
    }
}
