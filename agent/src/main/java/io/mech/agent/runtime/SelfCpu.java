package io.mech.agent.runtime;

import io.mech.probes.MechThreads;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time mech's own threads (those of mech's thread group, every one named
 * {@code mech-...}) have used, by name with a pool's trailing number dropped, so that a pool that replaces its threads keeps one name. A
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
    /**
     * Where mech's threads are: listing its group, not every thread of the JVM, keeps a sample's
     * cost to mech's own dozen threads on a host with thousands.
     */
    private final ThreadGroup group;
    /** mech's threads of the last listing, their ids and CPU times: kept from one sample to the next. */
    private Thread[] mechs = new Thread[16];
    private long[] ids = new long[16];
    /** Counts samples, so that a thread seen in this one is told from one gone since the last. */
    private long round;

    private static final class Seen {
        final String name;
        long cpuNanos;
        long round;

        Seen(final String name) {
            this.name = name;
        }
    }

    /** @param group mech's thread group, whose threads and subgroups' threads are measured */
    SelfCpu(final ThreadGroup group) {
        this.group = group;
    }

    /**
     * Measures mech's live threads now; a thread about to end calls this to leave its time behind.
     * The times are read in one call for all of them where the JVM offers it: a call per thread
     * looks each up in the JVM's thread list, and was a quarter of a cold scrape's cost of this figure.
     */
    synchronized void sample() {
        if (threads == null) {
            threads = ManagementFactory.getThreadMXBean();
            if (!threads.isThreadCpuTimeSupported()) {
                return;
            }
        }
        int listed;
        while ((listed = group.enumerate(mechs, true)) == mechs.length) {
            mechs = new Thread[mechs.length * 2];
            ids = new long[mechs.length];
        }
        int count = 0;
        for (int i = 0; i < listed; i++) {
            final Thread thread = mechs[i];
            mechs[i] = null;
            if (MechThreads.isMechs(thread.getName())) {
                mechs[count] = thread;
                ids[count++] = thread.getId();
            }
        }
        final long[] cpu = cpuNanos(count);
        round++;
        for (int i = 0; i < count; i++) {
            if (cpu[i] >= 0) {
                Seen seen = live.get(ids[i]);
                if (seen == null) {
                    seen = new Seen(poolName(mechs[i].getName()));
                    live.put(ids[i], seen);
                }
                seen.cpuNanos = cpu[i];
                seen.round = round;
            }
            mechs[i] = null;
        }
        for (final Iterator<Seen> it = live.values().iterator(); it.hasNext();) {
            final Seen seen = it.next();
            if (seen.round != round) {
                ended.merge(seen.name, seen.cpuNanos, Long::sum);
                it.remove();
            }
        }
    }

    /** The CPU times of the first {@code count} ids, -1 for a thread that ended since it was listed. */
    private long[] cpuNanos(final int count) {
        final long[] wanted = Arrays.copyOf(ids, count);
        if (threads instanceof com.sun.management.ThreadMXBean) {
            return ((com.sun.management.ThreadMXBean) threads).getThreadCpuTime(wanted);
        }
        final long[] cpu = new long[count];
        for (int i = 0; i < count; i++) {
            cpu[i] = threads.getThreadCpuTime(wanted[i]);
        }
        return cpu;
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
