package io.mech.probes.deadlocks;

import io.mech.probes.Periodic;
import io.mech.probes.VmOperations;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Looks for deadlocked threads every period, on its own daemon thread {@code mech-deadlocks}, the
 * way the JVM finds them for {@code jstack}: monitors and {@code java.util.concurrent} locks alike
 * ({@link ThreadMXBean#findDeadlockedThreads}).
 *
 * <p>Cost: each check is one VM operation, which brings every thread to a safepoint and walks the
 * threads' lock graph: well under a millisecond with a few hundred threads, and the reason the
 * period has a floor of a second. A check that finds nothing allocates little; one that finds a
 * deadlock asks for the stuck threads' lock details and top frame only.
 *
 * <p>Thread contract: only {@code mech-deadlocks}, a {@link Periodic} runner, checks and writes {@link #snapshot}, a volatile
 * reference to an immutable snapshot that any thread may read. {@link #close} may be called from
 * any thread, once or more.
 */
public final class DeadlockProbe implements AutoCloseable {

    private final ThreadMXBean threads;
    private final long periodMillis;
    /** Set once, right after the probe is made, by {@link #start}; its runner publishes the checks' start. */
    private Periodic runner;
    /** Cycles found so far, by their threads' ids in the order {@link #cycle} gives them; mech-deadlocks only. */
    private final Map<List<Long>, Deadlock> found = new LinkedHashMap<>();
    private long checks;
    private volatile DeadlockSnapshot snapshot;

    private DeadlockProbe(final ThreadMXBean threads, final long periodMillis) {
        this.threads = threads;
        this.periodMillis = periodMillis;
        this.snapshot = new DeadlockSnapshot(List.of(), 0, periodMillis);
    }

    /**
     * Starts checking: the first check runs at once.
     *
     * @param periodMillis the time between checks, at least 1,000
     * @param warnings     receives one line if a check fails, after which the probe stops
     * @return the running probe
     */
    public static DeadlockProbe start(final long periodMillis, final Consumer<String> warnings) {
        if (periodMillis < 1_000) {
            throw new IllegalArgumentException("the deadlock probe's period must be at least 1s, got " + periodMillis + " ms");
        }
        final DeadlockProbe probe = new DeadlockProbe(ManagementFactory.getThreadMXBean(), periodMillis);
        probe.runner = Periodic.start("mech-deadlocks", TimeUnit.MILLISECONDS.toNanos(periodMillis), true, probe::check, warnings);
        return probe;
    }

    /** @return the cycles found as of the last check */
    public DeadlockSnapshot snapshot() {
        return snapshot;
    }

    /** Stops checking; the last snapshot stays. */
    @Override
    public void close() {
        runner.close();
    }

    private void check() {
        checks++;
        final long[] stuck;
        final Runnable searched = VmOperations.begin("FindDeadlocks");
        try {
            stuck = threads.isSynchronizerUsageSupported() ? threads.findDeadlockedThreads() : threads.findMonitorDeadlockedThreads();
        } finally {
            searched.run();
        }
        if (stuck != null) {
            final Map<Long, ThreadInfo> infos = new HashMap<>();
            final Map<Long, Long> owners = new HashMap<>();
            final ThreadInfo[] dump;
            final Runnable dumped = VmOperations.begin("ThreadDump");
            try {
                dump = threads.getThreadInfo(stuck, true, threads.isSynchronizerUsageSupported());
            } finally {
                dumped.run();
            }
            for (final ThreadInfo info : dump) {
                if (info != null) {
                    infos.put(info.getThreadId(), info);
                    owners.put(info.getThreadId(), info.getLockOwnerId());
                }
            }
            for (final long id : stuck) {
                final List<Long> cycle = cycle(id, owners);
                if (!cycle.isEmpty() && !found.containsKey(cycle)) {
                    found.put(cycle, deadlock(cycle, infos));
                }
            }
        }
        snapshot = new DeadlockSnapshot(new ArrayList<>(found.values()), checks, periodMillis);
    }

    /**
     * The cycle a stuck thread waits in, following each thread to the owner of the lock it waits
     * for ({@code owners}: thread id to the id of the owner of what it waits for), started at its lowest
     * id; empty when the thread only waits for a cycle it is not part of
     * (that cycle is found from its own threads).
     */
    static List<Long> cycle(final long from, final Map<Long, Long> owners) {
        final List<Long> path = new ArrayList<>();
        long at = from;
        while (owners.containsKey(at) && !path.contains(at)) {
            path.add(at);
            at = owners.get(at);
        }
        final int start = path.indexOf(at);
        if (start != 0) {
            return List.of();
        }
        int lowest = 0;
        for (int i = 1; i < path.size(); i++) {
            if (path.get(i) < path.get(lowest)) {
                lowest = i;
            }
        }
        final List<Long> cycle = new ArrayList<>(path.subList(lowest, path.size()));
        cycle.addAll(path.subList(0, lowest));
        return List.copyOf(cycle);
    }

    /**
     * The frame a thread waits in, as its code has it: the first outside the JDK, since a thread
     * waiting for a {@code java.util.concurrent} lock stands in {@code Unsafe.park} under the
     * lock's own frames; the top frame when all are the JDK's; null without a stack.
     */
    static StackTraceElement waitingFrame(final StackTraceElement[] stack) {
        for (final StackTraceElement frame : stack) {
            final String type = frame.getClassName();
            if (!type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.")) {
                return frame;
            }
        }
        return stack.length == 0 ? null : stack[0];
    }

    private static Deadlock deadlock(final List<Long> cycle, final Map<Long, ThreadInfo> infos) {
        final List<Waiter> waiters = new ArrayList<>(cycle.size());
        for (final long id : cycle) {
            final ThreadInfo info = infos.get(id);
            final StackTraceElement frame = waitingFrame(info.getStackTrace());
            final String at = frame == null ? "" : frame.getClassName() + "." + frame.getMethodName() + ":" + frame.getLineNumber();
            waiters.add(new Waiter(info.getThreadName(), String.valueOf(info.getLockName()),
                String.valueOf(info.getLockOwnerName()), at));
        }
        return new Deadlock(waiters, System.currentTimeMillis());
    }
}
