package corpus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Exchanger;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.consumer.RecordingStream;

/**
 * A host of the lock corpus (io.mech.it.LockCorpusTest), outside io.mech so that mech takes it
 * for the user's code. Each driver is a method of its own, so a lock row's call site names it.
 *
 * <p>Once mech has started (its {@code io.mech.started} property, set in this JVM), first the
 * JDK's lock-free designs, at once, for {@link #LOCK_FREE}: four threads adding to one
 * {@link LongAdder}; four counting into a {@link ConcurrentHashMap} of adders over keys already
 * in it ({@code computeIfAbsent}, which finds a key first in its bin without the bin's lock) while
 * two read it; four swapping buffers through one {@link Exchanger}. Then the JDK's synchronized
 * maps, at once: four threads writing one {@link Hashtable}, four one
 * {@link Collections#synchronizedMap}, until mech's own {@code mech.LockContention} JFR event,
 * enabled here every second, names both ({@link #FLAGGED}): mech has then heard everything
 * before, the lock-free phase included. It prints
 * {@code ran=<driver> ops=<n>} for each, then exits.
 */
public final class LockCorpus {

    /** How long the lock-free drivers run together: the probe hears 1 ms blocks; this is 1,500 of them. */
    static final Duration LOCK_FREE = Duration.ofMillis(1500);
    /** What mech's periodic mech.LockContention event must name before the host ends: lock class at driver. */
    static final Set<String> FLAGGED = Set.of("java.util.Hashtable at corpus.LockCorpus.hashtableWriter",
        "java.util.Collections$SynchronizedMap at corpus.LockCorpus.synchronizedMapWriter");
    private static final Duration STARTED = Duration.ofSeconds(20);
    private static final Duration CONTENDED = Duration.ofSeconds(30);
    private static final int KEYS = 1024;

    private static final List<Thread> THREADS = new ArrayList<>();
    private static final Map<String, AtomicLong> OPS = new TreeMap<>();
    private static volatile boolean running;

    private LockCorpus() {
    }

    public static void main(final String[] args) throws Exception {
        awaitMech();
        final Set<String> heard = ConcurrentHashMap.newKeySet();
        try (RecordingStream mechs = new RecordingStream()) {
            mechs.enable("mech.LockContention").withPeriod(Duration.ofSeconds(1));
            mechs.onEvent("mech.LockContention", e -> heard.add(e.getString("lockClass") + " at "
                + e.getString("callSite").replaceAll(":.*", "")));
            mechs.startAsync();

            running = true;
            adder();
            mapCounts();
            exchanges();
            final long lockFreeEnd = System.nanoTime() + LOCK_FREE.toNanos();
            while (System.nanoTime() < lockFreeEnd) {
                Thread.sleep(10);
            }
            stop();

            running = true;
            hashtable();
            synchronizedMap();
            final long deadline = System.nanoTime() + CONTENDED.toNanos();
            while (System.nanoTime() < deadline && !heard.containsAll(FLAGGED)) {
                Thread.sleep(10);
            }
            stop();
        }
        OPS.forEach((driver, ops) -> System.out.println("ran=" + driver + " ops=" + ops.get()));
    }

    /** Polls this JVM's property until mech says every part is up (the lock probe starts a second in). */
    public static void awaitMech() throws InterruptedException {
        final long deadline = System.nanoTime() + STARTED.toNanos();
        while (System.getProperty("io.mech.started") == null) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("mech did not start within " + STARTED);
            }
            Thread.sleep(10);
        }
    }

    private static void adder() {
        final LongAdder adder = new LongAdder();
        final AtomicLong ops = ops("adderIncrements");
        for (int t = 0; t < 4; t++) {
            start(() -> adderIncrements(adder, ops));
        }
    }

    private static void adderIncrements(final LongAdder adder, final AtomicLong ops) {
        long done = 0;
        while (running) {
            adder.increment();
            done++;
        }
        ops.addAndGet(done);
    }

    private static void mapCounts() {
        final ConcurrentHashMap<Integer, LongAdder> counts = new ConcurrentHashMap<>();
        for (int k = 0; k < KEYS; k++) {
            counts.put(k, new LongAdder());
        }
        final AtomicLong writes = ops("mapCounts");
        final AtomicLong reads = ops("mapReads");
        for (int t = 0; t < 4; t++) {
            final int first = t;
            start(() -> mapCounts(counts, first, writes));
        }
        for (int t = 0; t < 2; t++) {
            start(() -> mapReads(counts, reads));
        }
    }

    private static void mapCounts(final ConcurrentHashMap<Integer, LongAdder> counts, final int first, final AtomicLong ops) {
        long done = 0;
        for (int k = first; running; k = (k + 7) % KEYS) {
            counts.computeIfAbsent(k, key -> new LongAdder()).increment();
            done++;
        }
        ops.addAndGet(done);
    }

    private static void mapReads(final ConcurrentHashMap<Integer, LongAdder> counts, final AtomicLong ops) {
        long done = 0;
        for (int k = 0; running; k = (k + 1) % KEYS) {
            counts.get(k).sum();
            done++;
        }
        ops.addAndGet(done);
    }

    private static void exchanges() {
        final Exchanger<long[]> exchanger = new Exchanger<>();
        final AtomicLong ops = ops("exchangeBuffers");
        for (int t = 0; t < 4; t++) {
            start(() -> exchangeBuffers(exchanger, ops));
        }
    }

    private static void exchangeBuffers(final Exchanger<long[]> exchanger, final AtomicLong ops) {
        long done = 0;
        long[] buffer = new long[64];
        while (running) {
            try {
                buffer[0] = done;
                buffer = exchanger.exchange(buffer, 10, TimeUnit.MILLISECONDS);
                done++;
            } catch (final TimeoutException e) {
                // no partner within 10 ms, as at the end: look at running again
            } catch (final InterruptedException e) {
                return;
            }
        }
        ops.addAndGet(done);
    }

    private static void hashtable() {
        final Hashtable<Integer, Integer> table = new Hashtable<>();
        final AtomicLong ops = ops("hashtableWriter");
        for (int t = 0; t < 4; t++) {
            start(() -> hashtableWriter(table, ops));
        }
    }

    private static void hashtableWriter(final Hashtable<Integer, Integer> table, final AtomicLong ops) {
        long done = 0;
        for (int k = 0; running; k = (k + 1) % KEYS) {
            table.merge(k, 1, Integer::sum);
            done++;
        }
        ops.addAndGet(done);
    }

    private static void synchronizedMap() {
        final Map<Integer, Integer> map = Collections.synchronizedMap(new HashMap<>());
        final AtomicLong ops = ops("synchronizedMapWriter");
        for (int t = 0; t < 4; t++) {
            start(() -> synchronizedMapWriter(map, ops));
        }
    }

    private static void synchronizedMapWriter(final Map<Integer, Integer> map, final AtomicLong ops) {
        long done = 0;
        for (int k = 0; running; k = (k + 1) % KEYS) {
            map.merge(k, 1, Integer::sum);
            done++;
        }
        ops.addAndGet(done);
    }

    private static AtomicLong ops(final String driver) {
        final AtomicLong ops = new AtomicLong();
        OPS.put(driver, ops);
        return ops;
    }

    private static void start(final Runnable body) {
        final Thread thread = new Thread(body, "corpus-" + THREADS.size());
        THREADS.add(thread);
        thread.start();
    }

    private static void stop() throws InterruptedException {
        running = false;
        for (final Thread thread : THREADS) {
            thread.join();
        }
        THREADS.clear();
    }
}
