package io.mech.probes.locks;

import io.mech.probes.MechCode;
import io.mech.probes.MechThreads;
import java.time.Duration;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordedThreadGroup;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JFR half of the lock probe: monitor enter, monitor wait, j.u.c. lock and synchronizer
 * park and monitor inflation events of mech's shared stream (on JDK 21 and later virtual threads pinned,
 * and on JDK 25 deflation and monitor statistics), summed into
 * {@link LockTables}.
 *
 * <p>Thresholds: enter, park and pinned at {@link LockProbeSettings#thresholdNanos()} (1 ms by default,
 * lowered from default.jfc's 20 ms: on the contended-monitor kernel 20 ms caught 1 to 5 blocks in
 * 3 s, 1 ms 23 to 81, so contention was reported by luck); waits take the same threshold, because
 * a monitor inflated by wait before JFR ran shows only through its waits, and default.jfc's 20 ms
 * saw none of the wait-notify kernel's 1 ms waits;
 * inflation and deflation take 0 ms (default.jfc leaves them off; they last microseconds) and
 * carry no stack trace, so each costs the JVM a few dozen bytes. JDK 17's JFR offers no throttle
 * setting for them, so their cost is capped where mech can: no stacks, each event only bumps a
 * count, and rows are capped at {@link LockProbeSettings#maxRows()}. Events that other
 * recordings enable below mech's thresholds are dropped here, so the counts do not depend on
 * what else records.
 *
 * <p>mech is never its own finding: a block counts only when the first frame outside the JDK is
 * the application's (not mech's, whose code also runs on the host's threads, as the queue probe's
 * registration does in a queue's constructor; a block with the JDK's frames alone is the JDK's
 * reference handling, cleaners or JFR's periodic thread idling), on a thread that is not mech's,
 * and on a lock that is not JFR's ({@link LockTables#jfrsLock}). Inflations carry no stack, so those of
 * mech's threads, JFR's and the JVM's own service threads are left out by thread ({@link MechThreads},
 * and the thread groups {@link AqsBridge#notTheHosts} goes by), and those of monitors of mech's
 * classes (its code locks them on the host's threads too) by class.
 */
final class LockJfr {

    /** What pins a virtual thread on JDKs whose pinned events give no reason (21 to 23). */
    static final String PINNED_BEFORE_24 = "monitor held or native frame";

    /** How JFR names HotSpot's class-initialisation lock's class: see {@link #inJdk}. */
    private static final String INIT_LOCK = "[I";
    /** The package of the synchronizers whose parks are waits ({@link #onPark}). */
    private static final String JUC = "java.util.concurrent.";

    private final LockTables tables;
    private final long thresholdNanos;
    private final EventThreads threads = new EventThreads();

    private LockJfr(final LockTables tables, final long thresholdNanos) {
        this.tables = tables;
        this.thresholdNanos = thresholdNanos;
    }

    /**
     * Subscribes to the lock events of a stream that is not started yet.
     *
     * @param stream         mech's JFR stream, shared with other parts
     * @param tables         where the events are summed
     * @param thresholdNanos the shortest monitor enter, wait and j.u.c. park to hear of
     */
    static void subscribe(final RecordingStream stream, final LockTables tables, final long thresholdNanos) {
        final Duration threshold = Duration.ofNanos(thresholdNanos);
        stream.enable("jdk.JavaMonitorEnter").withThreshold(threshold).withStackTrace();
        stream.enable("jdk.ThreadPark").withThreshold(threshold).withStackTrace();
        stream.enable("jdk.JavaMonitorWait").withThreshold(threshold).withStackTrace();
        stream.enable("jdk.JavaMonitorInflate").withThreshold(Duration.ZERO).withoutStackTrace();
        // JDK 25 and later; a JVM without these events ignores the settings.
        stream.enable("jdk.JavaMonitorDeflate").withThreshold(Duration.ZERO).withoutStackTrace();
        stream.enable("jdk.JavaMonitorStatistics").withPeriod(Duration.ofSeconds(1));
        // JDK 21 and later.
        stream.enable("jdk.VirtualThreadPinned").withThreshold(threshold).withStackTrace();
        final LockJfr jfr = new LockJfr(tables, thresholdNanos);
        stream.onEvent("jdk.JavaMonitorEnter", jfr::onEnter);
        stream.onEvent("jdk.ThreadPark", jfr::onPark);
        stream.onEvent("jdk.JavaMonitorWait", jfr::onWait);
        stream.onEvent("jdk.JavaMonitorInflate", jfr::onInflate);
        stream.onEvent("jdk.VirtualThreadPinned", jfr::onPinned);
        stream.onEvent("jdk.JavaMonitorDeflate", event -> tables.deflate());
        stream.onEvent("jdk.JavaMonitorStatistics", event -> tables.monitorsInUse(event.getLong("count")));
    }

    /**
     * A block entering a monitor, unless the thread that held it was mech's: that wait is mech's
     * own cost, not the host's contention (the profiler loading its native library holds the
     * JDK's library lock, a HashSet, which a host thread loading one of its own then waits for).
     */
    private void onEnter(final RecordedEvent event) {
        final long nanos = event.getDuration().toNanos();
        final String monitor = className(event, "monitorClass");
        if (INIT_LOCK.equals(monitor) && inJdk(event.getStackTrace())) {
            return;
        }
        final String owner = threadName(event, "previousOwner");
        final RecordedFrame site = MechThreads.isMechs(owner) ? null : hostsSite(event, monitor, nanos);
        if (site != null) {
            tables.block(LockKind.MONITOR_ENTER, monitor, frame(site), nanos, owner);
        }
    }

    /**
     * A park on a j.u.c. lock is contention on it; a park on any other of java.util.concurrent's
     * synchronizers is a wait on the one the application called ({@link ParkedStack}). Parks on no
     * blocker or on another library's are left out: they name no synchronizer. So is a worker
     * waiting for its next task, whatever it parks on: woken on its queue's condition, it parks
     * again on the queue's lock to take it back (a LinkedBlockingQueue's take lock, on JDK 25 as a
     * ReentrantLock park), and that is the idle worker's wait going on, not the application's
     * contention.
     */
    private void onPark(final RecordedEvent event) {
        final long nanos = event.getDuration().toNanos();
        if (nanos < thresholdNanos) {
            return;
        }
        final String parkedOn = className(event, "parkedClass");
        final String lock = LockTables.jucLockOf(parkedOn);
        if (lock == null && !parkedOn.startsWith(JUC)) {
            return;
        }
        final RecordedStackTrace trace = event.getStackTrace();
        final String waitedOn = lock != null ? lock : ParkedStack.synchronizer(trace);
        final RecordedFrame site = waitedOn == null || ParkedStack.waitingForTask(trace) ? null : hostsSite(event, waitedOn, nanos);
        if (site != null) {
            tables.block(lock != null ? LockKind.JUC_LOCK : LockKind.JUC_WAIT, waitedOn, frame(site), nanos, null);
        }
    }

    /**
     * A wait in {@code Object.wait}; not the JVM's wait for another thread to finish initialising
     * a class, which JFR reports as a monitor wait too, on HotSpot's init lock (an {@code int[]}),
     * with the code that touched the class on top instead of {@code Object.wait}: that is class
     * loading, not a monitor the code chose (four threads touching LongAdder at once wait so for a
     * few milliseconds while one initialises its cells' class).
     */
    private void onWait(final RecordedEvent event) {
        if (!inObjectWait(event.getStackTrace())) {
            return;
        }
        final long nanos = event.getDuration().toNanos();
        final String monitor = className(event, "monitorClass");
        final RecordedFrame site = hostsSite(event, monitor, nanos);
        if (site != null) {
            tables.block(LockKind.MONITOR_WAIT, monitor, frame(site), nanos, threadName(event, "notifier"));
        }
    }

    /**
     * A virtual thread that blocked while pinned, by the first frame of the application's code
     * on its stack: the class initializer, native method's caller or synchronized block it
     * blocked in. JDK 24 and later say why it was pinned; JDK 21 to 23 do not, and pin there for
     * a monitor held or a native frame.
     */
    private void onPinned(final RecordedEvent event) {
        final long nanos = event.getDuration().toNanos();
        final String reason = event.hasField("pinnedReason") ? event.getString("pinnedReason") : null;
        final String why = reason == null || reason.isEmpty() ? PINNED_BEFORE_24 : reason;
        final RecordedFrame site = hostsSite(event, why, nanos);
        if (site != null) {
            tables.block(LockKind.PINNED, why, frame(site), nanos, null);
        }
    }

    private void onInflate(final RecordedEvent event) {
        final String monitor = className(event, "monitorClass");
        final RecordedThread thread = thread(event, "eventThread");
        if (LockTables.jfrsLock(monitor) || MechCode.contains(monitor) || MechThreads.isJfrs(name(thread)) || jvms(thread)
            || mechs(thread)) {
            return;
        }
        tables.inflate(monitor, String.valueOf(event.<Object>getValue("cause")));
    }

    /**
     * The call site of a block that is the host's, or null for a block below the threshold (other
     * recordings may enable lower ones) or not the host's: see the class comment.
     */
    private RecordedFrame hostsSite(final RecordedEvent event, final String lockClass, final long nanos) {
        if (nanos < thresholdNanos || LockTables.jfrsLock(lockClass)) {
            return null;
        }
        final RecordedFrame first = firstOutsideJdk(event.getStackTrace());
        if (first == null || MechCode.contains(first.getMethod().getType().getName())
            || mechs(thread(event, "eventThread"))) {
            return null;
        }
        return first;
    }

    private static String className(final RecordedEvent event, final String field) {
        final RecordedClass type = event.hasField(field) ? event.getClass(field) : null;
        return type == null ? "unknown" : type.getName();
    }

    /**
     * The JVM's own service threads: the system thread group's, and the JDK's innocuous threads'
     * group within it (virtual threads have a group there too, of another name).
     */
    private static boolean jvms(final RecordedThread thread) {
        final RecordedThreadGroup group = thread == null ? null : thread.getThreadGroup();
        if (group == null) {
            return false;
        }
        final RecordedThreadGroup parent = group.getParent();
        return parent == null ? "system".equals(group.getName())
            : parent.getParent() == null && "InnocuousThreadGroup".equals(group.getName());
    }

    private boolean mechs(final RecordedThread thread) {
        return thread != null && threads.isMechs(name(thread), thread.getJavaThreadId());
    }

    private static RecordedThread thread(final RecordedEvent event, final String field) {
        return event.hasField(field) ? event.getThread(field) : null;
    }

    private static String threadName(final RecordedEvent event, final String field) {
        return name(thread(event, field));
    }

    /** @return the thread's Java name, else its OS name; null for no thread */
    private static String name(final RecordedThread thread) {
        if (thread == null) {
            return null;
        }
        final String name = thread.getJavaName();
        return name != null ? name : thread.getOSName();
    }

    /** @return a frame as class.method:line */
    private static String frame(final RecordedFrame frame) {
        return LockTables.frame(frame.getMethod().getType().getName(), frame.getMethod().getName(), frame.getLineNumber());
    }

    /** Whether the stack's top frame is {@code Object.wait} (or {@code wait0}, JDK 21 and later); true without a stack. */
    static boolean inObjectWait(final RecordedStackTrace trace) {
        if (trace == null || trace.getFrames().isEmpty()) {
            return true;
        }
        final RecordedFrame top = trace.getFrames().get(0);
        return top.getMethod().getType().getName().equals("java.lang.Object") && top.getMethod().getName().startsWith("wait");
    }

    /**
     * Whether a block happened in the JDK's own code: entering an {@code int[]} there is entering
     * HotSpot's class-initialisation lock, as the JDK synchronizes on no {@code int[]} of its
     * own. Four threads in their first {@code LongAdder.increment()} block so while one initialises
     * the cells' class, 12 ms on a loaded machine (LockCorpusTest, JDK 17): class loading, not a
     * monitor the code chose. An application's own {@code synchronized} on an {@code int[]}
     * still counts, its frame on top.
     */
    private static boolean inJdk(final RecordedStackTrace trace) {
        if (trace == null || trace.getFrames().isEmpty()) {
            return false;
        }
        return LockTables.jdk(trace.getFrames().get(0).getMethod().getType().getName());
    }

    /** The first frame outside the JDK, or null when there is none. */
    private static RecordedFrame firstOutsideJdk(final RecordedStackTrace trace) {
        if (trace != null) {
            for (final RecordedFrame frame : trace.getFrames()) {
                if (!LockTables.jdk(frame.getMethod().getType().getName())) {
                    return frame;
                }
            }
        }
        return null;
    }
}
