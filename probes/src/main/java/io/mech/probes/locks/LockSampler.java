package io.mech.probes.locks;

import io.mech.probes.MechCode;
import io.mech.probes.MechThreads;
import io.mech.probes.Periodic;
import io.mech.probes.VmOperations;
import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.function.Consumer;

/**
 * The lock probe without JFR: samples every thread's state through ThreadMXBean and counts the
 * threads found blocked on a monitor or parked on a j.u.c. lock, by lock class and call site.
 * Each sample stands for the time since the last one; short blocks are seen in proportion to how
 * much time they take. A sample is a thread dump with stacks (a safepoint), so samples are rare.
 *
 * <p>As with JFR's events ({@link LockJfr}), mech's threads, blocks whose first frame outside the
 * JDK is mech's, and JFR's locks are left out; and JFR's threads, unless an application frame is
 * among the {@value #DEPTH} frames sampled. A stack of the JDK's frames alone still counts on any
 * other thread: at this depth a deep JDK call may hide the application frame below it.
 *
 * <p>Dumps are spaced by what they cost ({@link DumpSpacing}): at most one every
 * {@link #PERIOD_NANOS}, fewer on a host whose dumps take long.
 */
final class LockSampler implements AutoCloseable {

    /** The shortest time between samples. */
    static final long PERIOD_NANOS = 100_000_000L;

    private static final int DEPTH = 16;

    private final LockTables tables;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Periodic runner;
    private final DumpSpacing spacing = new DumpSpacing(PERIOD_NANOS);

    private LockSampler(final LockTables tables, final Consumer<String> warnings) {
        this.tables = tables;
        this.runner = Periodic.start("mech-locks-sampler", PERIOD_NANOS, false, this::sample, warnings);
    }

    static LockSampler start(final LockTables tables, final Consumer<String> warnings) {
        return new LockSampler(tables, warnings);
    }

    void sample() {
        final long start = System.nanoTime();
        if (!spacing.due(start)) {
            return;
        }
        final Runnable dumped = VmOperations.begin("ThreadDump");
        final ThreadInfo[] dump;
        try {
            dump = threads.dumpAllThreads(false, false, DEPTH);
        } finally {
            dumped.run();
        }
        final long stands = spacing.dumped(start, System.nanoTime());
        for (final ThreadInfo info : dump) {
            if (info == null || MechThreads.isMechs(info.getThreadName())) {
                continue;
            }
            final LockInfo lock = info.getLockInfo();
            if (lock == null) {
                continue;
            }
            final LockKind kind;
            final String lockClass;
            if (info.getThreadState() == Thread.State.BLOCKED) {
                kind = LockKind.MONITOR_ENTER;
                lockClass = lock.getClassName();
            } else {
                kind = LockKind.JUC_LOCK;
                lockClass = LockTables.jucLockOf(lock.getClassName());
                if (lockClass == null) {
                    continue;
                }
            }
            final StackTraceElement[] frames = info.getStackTrace();
            final StackTraceElement first = firstOutsideJdk(frames);
            final boolean notTheHosts = first != null ? MechCode.contains(first.getClassName())
                : MechThreads.isJfrs(info.getThreadName());
            if (notTheHosts || LockTables.jfrsLock(lockClass)) {
                continue;
            }
            final StackTraceElement site = first != null ? first : frames.length > 0 ? frames[0] : null;
            tables.block(kind, lockClass, site == null ? "unknown"
                : LockTables.frame(site.getClassName(), site.getMethodName(), site.getLineNumber()), stands,
                kind == LockKind.MONITOR_ENTER ? info.getLockOwnerName() : null);
        }
    }

    /** The first frame outside the JDK, or null when there is none. */
    private static StackTraceElement firstOutsideJdk(final StackTraceElement[] frames) {
        for (final StackTraceElement frame : frames) {
            if (!LockTables.jdk(frame.getClassName())) {
                return frame;
            }
        }
        return null;
    }

    @Override
    public void close() {
        runner.close();
    }
}
