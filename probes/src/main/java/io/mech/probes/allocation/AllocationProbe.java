package io.mech.probes.allocation;

import io.mech.probes.MechThreads;
import io.mech.probes.Periodic;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Reads HotSpot's per-thread allocation counters every period, on its own daemon thread
 * {@code mech-allocation}: how fast the JVM allocates, and which of the host's threads allocate
 * most. The collector pays for every byte allocated, so this is where a GC's cause often starts.
 *
 * <p>Cost: each check reads one counter per live thread ({@code getThreadAllocatedBytes} over an
 * array of ids: no safepoint) and asks the names of threads it has not seen before only; the
 * per-thread state is bounded: a thread that ended is forgotten once it can no longer be among the
 * top.
 *
 * <p>Thread contract: only {@code mech-allocation}, a {@link Periodic} runner, checks and writes
 * {@link #snapshot}, a volatile reference to an immutable snapshot that any thread may read.
 * {@link #close} may be called from any thread, once or more.
 */
public final class AllocationProbe implements AutoCloseable {

    /** Threads the snapshot names. */
    public static final int TOP = 5;

    private final com.sun.management.ThreadMXBean threads;
    private final long periodNanos;
    /** Every thread seen, by id; mech-allocation only. */
    private final Map<Long, Tally> seen = new HashMap<>();
    private Periodic runner;
    private long checks;
    private long firstNanos;
    private long lastNanos;
    private long total;
    private volatile AllocationSnapshot snapshot = new AllocationSnapshot(0, 0, 0, 0, List.of());

    /** One thread's counter as the probe follows it; mech-allocation only. */
    private static final class Tally {
        final String name;
        final boolean host;
        final long first;
        long last;
        long lastDelta;
        boolean alive;

        Tally(final String name, final long first) {
            this.name = name;
            this.host = !MechThreads.isMechs(name) && !MechThreads.isJfrs(name);
            this.first = first;
            this.last = first;
        }

        long bytes() {
            return last - first;
        }
    }

    private AllocationProbe(final com.sun.management.ThreadMXBean threads, final long periodNanos) {
        this.threads = threads;
        this.periodNanos = periodNanos;
    }

    /**
     * Starts checking: the first check, at once, takes the counters' starting point.
     *
     * @param periodMillis the time between checks, at least 100
     * @param warnings     receives one line if a check fails, after which the probe stops
     * @return the running probe
     * @throws IllegalStateException when this JVM counts no per-thread allocation
     */
    public static AllocationProbe start(final long periodMillis, final Consumer<String> warnings) {
        if (periodMillis < 100) {
            throw new IllegalArgumentException("the allocation probe's period must be at least 100ms, got " + periodMillis + " ms");
        }
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads)
            || !threads.isThreadAllocatedMemorySupported()) {
            throw new IllegalStateException("this JVM counts no allocation per thread");
        }
        if (!threads.isThreadAllocatedMemoryEnabled()) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
        final AllocationProbe probe = new AllocationProbe(threads, TimeUnit.MILLISECONDS.toNanos(periodMillis));
        probe.runner = Periodic.start("mech-allocation", probe.periodNanos, true, probe::check, warnings);
        return probe;
    }

    /** @return what the probe knows as of its last check */
    public AllocationSnapshot snapshot() {
        return snapshot;
    }

    /** Stops checking; the last snapshot stays. */
    @Override
    public void close() {
        runner.close();
    }

    private void check() {
        final long now = System.nanoTime();
        final long[] ids = threads.getAllThreadIds();
        final long[] bytes = threads.getThreadAllocatedBytes(ids);
        for (final Tally tally : seen.values()) {
            tally.alive = false;
            tally.lastDelta = 0;
        }
        final List<Long> unnamed = new ArrayList<>();
        final List<Long> unnamedBytes = new ArrayList<>();
        long delta = 0;
        for (int i = 0; i < ids.length; i++) {
            if (bytes[i] < 0) {
                continue;
            }
            final Tally tally = seen.get(ids[i]);
            if (tally == null) {
                unnamed.add(ids[i]);
                unnamedBytes.add(bytes[i]);
                continue;
            }
            tally.lastDelta = bytes[i] - tally.last;
            delta += tally.lastDelta;
            tally.last = bytes[i];
            tally.alive = true;
        }
        name(unnamed, unnamedBytes);
        checks++;
        if (checks == 1) {
            firstNanos = now;
        } else {
            total += delta;
        }
        final double seconds = checks == 1 ? 0 : (now - lastNanos) / 1e9;
        lastNanos = now;
        final Tally[] best = new Tally[TOP];
        int hosts = 0;
        for (final Tally tally : seen.values()) {
            if (tally.host) {
                hosts++;
                keepIfAmongBest(best, tally);
            }
        }
        final List<ThreadAllocation> top = new ArrayList<>(TOP);
        for (int i = 0; i < TOP && best[i] != null && best[i].bytes() > 0; i++) {
            final Tally t = best[i];
            top.add(new ThreadAllocation(t.name, t.bytes(), seconds == 0 ? 0 : t.lastDelta / seconds, t.alive));
        }
        forgetEnded(hosts <= TOP ? Long.MIN_VALUE : best[TOP - 1].bytes());
        snapshot = new AllocationSnapshot(checks, now - firstNanos, total, seconds == 0 ? 0 : delta / seconds, top);
    }

    /**
     * Puts the tally among the best, most bytes first, if it allocated more than one of them: one
     * pass that keeps a few, where a check used to sort every host thread it had seen. A tie keeps
     * the one seen first.
     */
    private static void keepIfAmongBest(final Tally[] best, final Tally tally) {
        int at = best.length;
        while (at > 0 && (best[at - 1] == null || best[at - 1].bytes() < tally.bytes())) {
            at--;
        }
        if (at < best.length) {
            System.arraycopy(best, at, best, at + 1, best.length - at - 1);
            best[at] = tally;
        }
    }

    /**
     * Starts following threads not seen before, by name; a thread that ended before its name was
     * asked is left out. A new thread's bytes before this check are not counted: they were
     * allocated before it was watched, or within a period too short to tell.
     */
    private void name(final List<Long> ids, final List<Long> bytes) {
        if (ids.isEmpty()) {
            return;
        }
        final long[] asked = new long[ids.size()];
        for (int i = 0; i < asked.length; i++) {
            asked[i] = ids.get(i);
        }
        final ThreadInfo[] infos = threads.getThreadInfo(asked, 0);
        for (int i = 0; i < infos.length; i++) {
            if (infos[i] != null) {
                final Tally tally = new Tally(infos[i].getThreadName(), bytes.get(i));
                tally.alive = true;
                seen.put(asked[i], tally);
            }
        }
    }

    /**
     * Forgets the ended threads that allocated less than the last of the top, and mech's own that
     * ended: they can never be among the top again.
     */
    private void forgetEnded(final long floor) {
        for (final Iterator<Tally> it = seen.values().iterator(); it.hasNext(); ) {
            final Tally tally = it.next();
            if (!tally.alive && (!tally.host || tally.bytes() < floor)) {
                it.remove();
            }
        }
    }
}
