package io.mech.probes.locks;

import io.mech.probes.MechThreads;
import io.mech.probes.Periodic;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The lock probe before JFR records: watches, at next to no cost, for the first contention worth
 * JFR's start, and asks for the stream once. JFR costs a JVM tens of MiB and a second and more of
 * CPU in its first seconds, so a host that never contends never pays it.
 *
 * <p>Three signs count. A thread found parked on a j.u.c. lock ({@code ReentrantLock},
 * {@code ReentrantReadWriteLock}, {@code StampedLock}: its park's blocker), which parks only while
 * another holds it, so that is contention, seen as a thread dump sees it but without stacks; a
 * j.u.c. lock acquisition the counting advice timed at the probe's threshold or longer
 * ({@link AqsCounting}), where it is woven already; and a thread's time blocked
 * entering monitors, from the times HotSpot keeps for every thread once contention monitoring
 * is on ({@link ThreadInfo#getBlockedTime}, in milliseconds). Turning it on times each contended
 * monitor enter and each park or wait with two clock reads, next to nothing beside the block;
 * a host that turned it on itself keeps it on. The time rather than the count, because a JDK
 * thread's single short block at start-up is not contention worth JFR. Nor is the JDK's own
 * threads' at all (the cleaner blocked 3 ms as mech wove, JDK 17): as for the counting advice,
 * those of the system thread group, the JDK's innocuous threads, virtual threads' carriers and
 * JFR's. The first round reads every thread's figures once, for its baseline; each later round
 * at most {@link #PER_ROUND} threads', without stacks (no safepoint), taking the threads in turn,
 * so its cost does not grow with the thread count; the figures only
 * grow, so a thread's blocks since its last turn are never missed, only seen up to a few rounds
 * late on a host of thousands of threads. The figures of the threads alive at the first round
 * are its baseline: what they blocked before the probe started is not the run's.
 *
 * <p>Thread contract: one thread, {@code mech-locks-watch}, runs the rounds and owns the maps;
 * {@link #blocked} and {@link #fired} are read from any thread through volatile fields;
 * {@link #close} may come from any thread and ends the rounds.
 */
final class ContentionWatch implements AutoCloseable {

    /** A round a second: JFR on demand is a start-up matter, a second late costs a second of blocks. */
    static final long PERIOD_NANOS = 1_000_000_000L;
    /** Threads whose counts one round reads at most. */
    static final int PER_ROUND = 256;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Supplier<List<JucContention>> counted;
    private final long thresholdNanos;
    private final Consumer<String> onFirst;
    private final Periodic runner;
    /** Each thread's blocked count and time (ms) when last read, by thread id; the round thread's alone. */
    private final Map<Long, long[]> last = new HashMap<>();
    /** Whether the JVM times blocks: where it cannot, a block of any length counts. */
    private final boolean timed;
    private boolean baseline;
    private int cursor;
    private volatile long blocked;
    private volatile String fired;

    /**
     * @param counted        the counting advice's figures so far (empty while it is not woven)
     * @param thresholdNanos the shortest j.u.c. acquisition worth JFR's start: the probe's threshold
     * @param onFirst        told once, on the round thread, why JFR should start
     * @param periodNanos    the time between rounds
     * @param atOnce         whether the first round, the baseline, runs at once
     */
    ContentionWatch(final Supplier<List<JucContention>> counted, final long thresholdNanos, final Consumer<String> onFirst,
                    final Consumer<String> warnings, final long periodNanos, final boolean atOnce) {
        this.counted = counted;
        this.thresholdNanos = thresholdNanos;
        this.onFirst = onFirst;
        this.timed = timeBlocks(threads);
        // started once this field is set: the first round runs at once and may fire, which closes it
        this.runner = Periodic.unstarted("mech-locks-watch", periodNanos, atOnce, this::round, warnings);
        runner.begin();
    }

    static ContentionWatch start(final Supplier<List<JucContention>> counted, final long thresholdNanos,
                                 final Consumer<String> onFirst, final Consumer<String> warnings) {
        return new ContentionWatch(counted, thresholdNanos, onFirst, warnings, PERIOD_NANOS, true);
    }

    private static boolean timeBlocks(final ThreadMXBean threads) {
        try {
            if (threads.isThreadContentionMonitoringSupported()) {
                threads.setThreadContentionMonitoringEnabled(true);
                return true;
            }
        } catch (final UnsupportedOperationException | SecurityException e) {
            // not timed: counts alone
        }
        return false;
    }

    void round() {
        if (fired != null) {
            return;
        }
        for (final JucContention c : counted.get()) {
            if (c.maxNanos() >= thresholdNanos) {
                fire(String.format(Locale.ROOT, "a %s acquisition waited %.1f ms", c.lockClass(), c.maxNanos() / 1e6));
                return;
            }
        }
        final long[] ids = threads.getAllThreadIds();
        if (!baseline) {
            final String parked = read(ids, 0, ids.length);
            baseline = true;
            if (parked != null) {
                fire(parked);
            }
            return;
        }
        final int from = cursor < ids.length ? cursor : 0;
        if (from == 0) {
            // a new pass: forget the threads that ended
            last.keySet().retainAll(new HashSet<>(Arrays.stream(ids).boxed().toList()));
        }
        final int to = Math.min(ids.length, from + PER_ROUND);
        cursor = to;
        final String first = read(ids, from, to);
        if (first != null) {
            fire(first);
        }
    }

    /**
     * Reads the blocked figures of {@code ids[from, to)}, notes each, and adds the blocks to {@link #blocked}.
     *
     * @return the first thread parked on a j.u.c. lock or, after the baseline, whose blocked time
     *         grew by the threshold, as a reason; null when none
     */
    private String read(final long[] ids, final int from, final int to) {
        final long[] some = Arrays.copyOfRange(ids, from, to);
        String first = null;
        long grown = 0;
        for (final ThreadInfo info : threads.getThreadInfo(some, 0)) {
            if (info == null || MechThreads.isMechs(info.getThreadName())) {
                continue;
            }
            final long[] now = {info.getBlockedCount(), timed ? info.getBlockedTime() : 0};
            // a thread born after the baseline blocked all that in the run
            final long[] before = last.getOrDefault(info.getThreadId(), baseline ? new long[2] : now);
            last.put(info.getThreadId(), now);
            final long blocks = now[0] - before[0];
            final long millis = now[1] - before[1];
            grown += blocks;
            if (first == null && blocks > 0 && (!timed || millis * 1_000_000L >= thresholdNanos) && !jdksOwn(info.getThreadId())) {
                first = String.format(Locale.ROOT, "monitor contention: thread \"%s\" blocked %d time%s%s", info.getThreadName(), blocks,
                    blocks == 1 ? "" : "s", timed ? ", " + millis + " ms" : "");
            }
            final String lock = parkedOnLock(info);
            if (first == null && lock != null && !jdksOwn(info.getThreadId())) {
                first = String.format(Locale.ROOT, "j.u.c. lock contention: thread \"%s\" parked on a %s", info.getThreadName(), lock);
            }
        }
        blocked += grown;
        return first;
    }

    /** The j.u.c. lock class the thread is parked on, from its park's blocker; null when it is not. */
    private static String parkedOnLock(final ThreadInfo info) {
        final Thread.State state = info.getThreadState();
        if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING || info.getLockInfo() == null) {
            return null;
        }
        return LockTables.jucLockOf(info.getLockInfo().getClassName());
    }

    /** Whether the thread of this id is the JDK's own, by what it is; false when it ended. */
    private static boolean jdksOwn(final long id) {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) {
            root = root.getParent();
        }
        final Thread[] all = new Thread[root.activeCount() + 16];
        final int n = root.enumerate(all, true);
        for (int i = 0; i < n; i++) {
            @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+
            final long itsId = all[i].getId();
            if (itsId == id) {
                final String type = all[i].getClass().getName();
                return all[i].getThreadGroup() == root || all[i].getName().startsWith("JFR ")
                    || type.equals("jdk.internal.misc.InnocuousThread") || type.equals("jdk.internal.misc.CarrierThread");
            }
        }
        return false;
    }

    private void fire(final String why) {
        fired = why;
        runner.close();
        onFirst.accept(why);
    }

    /** @return monitor blocks the watch saw before it fired or closed */
    long blocked() {
        return blocked;
    }

    /** @return why the watch asked for JFR; null while it has not */
    String fired() {
        return fired;
    }

    @Override
    public void close() {
        runner.close();
    }
}
