package io.mech.agent.runtime;

import io.mech.probes.LiveThreads;
import io.mech.probes.MechThreads;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time mech's own threads (every one named {@code mech-...}) have used, by name with a
 * pool's trailing number dropped, so that a pool that replaces its threads keeps one name. A
 * thread is measured while it lives; once it has ended, what it was last seen to use is kept.
 * JFR's threads, which mech's stream keeps busy, are JFR's and not counted.
 *
 * <p>Thread contract: {@link #sample} and {@link #byThread} may be called from any thread (the
 * scrape threads, the report, {@code mech-start} as it ends); they serialise on this object.
 */
final class SelfCpu {

    /** Loaded at the first sample: java.management costs a JVM that lives a second its start-up. */
    private ThreadMXBean threads;
    /** The last CPU time seen of each live mech thread, by thread id, with its name. */
    private final Map<Long, Seen> live = new HashMap<>();
    /** What ended threads used, by name. */
    private final Map<String, Long> ended = new HashMap<>();

    private static final class Seen {
        final String name;
        long cpuNanos;

        Seen(final String name) {
            this.name = name;
        }
    }

    /** Measures mech's live threads now; a thread about to end calls this to leave its time behind. */
    synchronized void sample() {
        if (threads == null) {
            threads = ManagementFactory.getThreadMXBean();
            if (!threads.isThreadCpuTimeSupported()) {
                return;
            }
        }
        final Map<Long, Thread> alive = new HashMap<>();
        for (final Thread thread : LiveThreads.list()) {
            if (MechThreads.isMechs(thread.getName())) {
                alive.put(thread.getId(), thread);
            }
        }
        for (final Iterator<Map.Entry<Long, Seen>> it = live.entrySet().iterator(); it.hasNext();) {
            final Map.Entry<Long, Seen> entry = it.next();
            if (!alive.containsKey(entry.getKey())) {
                ended.merge(entry.getValue().name, entry.getValue().cpuNanos, Long::sum);
                it.remove();
            }
        }
        for (final Thread thread : alive.values()) {
            final long cpu = threads.getThreadCpuTime(thread.getId());
            if (cpu >= 0) {
                live.computeIfAbsent(thread.getId(), id -> new Seen(poolName(thread.getName()))).cpuNanos = cpu;
            }
        }
    }

    /**
     * Measures again, as the stop begins, if a sample was taken before: a host that stops before
     * {@code mech-start} sampled loads no java.management at its exit.
     */
    synchronized void sampleAgain() {
        if (threads != null) {
            sample();
        }
    }

    /** Whether a sample was taken: {@code mech-start} takes one once every part has started. */
    synchronized boolean sampled() {
        return threads != null;
    }

    /** CPU nanoseconds by thread name, sorted by name, as of a sample taken now. */
    synchronized Map<String, Long> byThread() {
        sample();
        final Map<String, Long> total = new TreeMap<>(ended);
        for (final Seen seen : live.values()) {
            total.merge(seen.name, seen.cpuNanos, Long::sum);
        }
        return total;
    }

    /** A thread's name without the number a pool appends ({@code mech-prometheus-scrape-3}: {@code mech-prometheus-scrape}). */
    static String poolName(final String name) {
        int end = name.length();
        while (end > 0 && Character.isDigit(name.charAt(end - 1))) {
            end--;
        }
        return end < name.length() && end > MechThreads.MECH_PREFIX.length() && name.charAt(end - 1) == '-' ? name.substring(0, end - 1) : name;
    }
}
