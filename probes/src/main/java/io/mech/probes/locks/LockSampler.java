package io.mech.probes.locks;

import java.lang.management.LockInfo;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.function.Consumer;

/**
 * The lock probe without JFR: samples every thread's state through ThreadMXBean every
 * {@link #PERIOD_NANOS} and counts the threads found blocked on a monitor or parked on a
 * j.u.c. lock, by lock class and call site. Each sample stands for one period of blocking;
 * short blocks are seen in proportion to how much time they take. A sample is a thread dump
 * with stacks (a safepoint), so the period is long.
 */
final class LockSampler implements AutoCloseable {

    /** Sampling period. */
    static final long PERIOD_NANOS = 100_000_000L;

    private static final int DEPTH = 16;

    private final LockTables tables;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final Thread thread;
    private volatile boolean closed;

    private LockSampler(final LockTables tables, final Consumer<String> warnings) {
        this.tables = tables;
        this.thread = new Thread(() -> {
            try {
                while (!closed) {
                    Thread.sleep(PERIOD_NANOS / 1_000_000L);
                    sample();
                }
            } catch (final InterruptedException e) {
                // closed
            } catch (final RuntimeException | LinkageError e) {
                warnings.accept("lock sampler stopped (" + e + ")");
            }
        }, "mech-locks-sampler");
        thread.setDaemon(true);
    }

    static LockSampler start(final LockTables tables, final Consumer<String> warnings) {
        final LockSampler sampler = new LockSampler(tables, warnings);
        sampler.thread.start();
        return sampler;
    }

    void sample() {
        final long self = thread.getId();
        for (final ThreadInfo info : threads.dumpAllThreads(false, false, DEPTH)) {
            if (info == null || info.getThreadId() == self) {
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
            tables.block(kind, lockClass, callSite(info.getStackTrace()), PERIOD_NANOS,
                kind == LockKind.MONITOR_ENTER ? info.getLockOwnerName() : null);
        }
    }

    private static String callSite(final StackTraceElement[] frames) {
        for (final StackTraceElement frame : frames) {
            if (!LockTables.notApplication(frame.getClassName())) {
                return LockTables.frame(frame.getClassName(), frame.getMethodName(), frame.getLineNumber());
            }
        }
        return frames.length == 0 ? "unknown"
            : LockTables.frame(frames[0].getClassName(), frames[0].getMethodName(), frames[0].getLineNumber());
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }
}
