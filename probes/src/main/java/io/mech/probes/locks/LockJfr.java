package io.mech.probes.locks;

import java.time.Duration;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JFR half of the lock probe: monitor enter, monitor wait, j.u.c. lock park and
 * monitor inflation events of mech's shared stream (and on JDK 25 deflation and monitor
 * statistics), summed into
 * {@link LockTables}.
 *
 * <p>Thresholds: enter and park at {@link LockProbeSettings#thresholdNanos()} (1 ms by default,
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
 */
final class LockJfr {

    private final LockTables tables;
    private final long thresholdNanos;

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
        final LockJfr jfr = new LockJfr(tables, thresholdNanos);
        stream.onEvent("jdk.JavaMonitorEnter", jfr::onEnter);
        stream.onEvent("jdk.ThreadPark", jfr::onPark);
        stream.onEvent("jdk.JavaMonitorWait", jfr::onWait);
        stream.onEvent("jdk.JavaMonitorInflate", jfr::onInflate);
        stream.onEvent("jdk.JavaMonitorDeflate", event -> tables.deflate());
        stream.onEvent("jdk.JavaMonitorStatistics", event -> tables.monitorsInUse(event.getLong("count")));
    }

    private void onEnter(final RecordedEvent event) {
        if (notTheHosts(event)) {
            return;
        }
        final long nanos = event.getDuration().toNanos();
        if (nanos >= thresholdNanos) {
            tables.block(LockKind.MONITOR_ENTER, className(event, "monitorClass"), callSite(event.getStackTrace()),
                nanos, threadName(event, "previousOwner"));
        }
    }

    private void onPark(final RecordedEvent event) {
        if (notTheHosts(event)) {
            return;
        }
        final long nanos = event.getDuration().toNanos();
        if (nanos < thresholdNanos) {
            return;
        }
        final String lock = LockTables.jucLockOf(className(event, "parkedClass"));
        if (lock != null) {
            tables.block(LockKind.JUC_LOCK, lock, callSite(event.getStackTrace()), nanos, null);
        }
    }

    private void onWait(final RecordedEvent event) {
        if (notTheHosts(event)) {
            return;
        }
        final long nanos = event.getDuration().toNanos();
        if (nanos >= thresholdNanos) {
            tables.block(LockKind.MONITOR_WAIT, className(event, "monitorClass"), callSite(event.getStackTrace()),
                nanos, threadName(event, "notifier"));
        }
    }

    private void onInflate(final RecordedEvent event) {
        if (mechsOwn(event)) {
            return;
        }
        tables.inflate(className(event, "monitorClass"), String.valueOf(event.<Object>getValue("cause")));
    }

    /** Events of mech's own threads are mech's business, not the host's. */
    private static boolean mechsOwn(final RecordedEvent event) {
        final String name = threadName(event, "eventThread");
        return name != null && name.startsWith("mech-");
    }

    /**
     * Blocks with no application frame on the stack (the JDK's reference handling and cleaners
     * idling in wait, JFR's periodic thread running mech's event hook) are not the host's either.
     */
    private static boolean notTheHosts(final RecordedEvent event) {
        return mechsOwn(event) || applicationFrame(event.getStackTrace()) == null;
    }

    private static String className(final RecordedEvent event, final String field) {
        final RecordedClass type = event.hasField(field) ? event.getClass(field) : null;
        return type == null ? "unknown" : type.getName();
    }

    private static String threadName(final RecordedEvent event, final String field) {
        final RecordedThread thread = event.hasField(field) ? event.getThread(field) : null;
        if (thread == null) {
            return null;
        }
        final String name = thread.getJavaName();
        return name != null ? name : thread.getOSName();
    }

    /** The first frame outside the JDK, as class.method:line; the top frame when every frame is the JDK's. */
    static String callSite(final RecordedStackTrace trace) {
        if (trace == null || trace.getFrames().isEmpty()) {
            return "unknown";
        }
        final RecordedFrame frame = applicationFrame(trace);
        final RecordedFrame shown = frame != null ? frame : trace.getFrames().get(0);
        return LockTables.frame(shown.getMethod().getType().getName(), shown.getMethod().getName(), shown.getLineNumber());
    }

    /** The first frame outside the JDK, or null when there is none. */
    private static RecordedFrame applicationFrame(final RecordedStackTrace trace) {
        if (trace != null) {
            for (final RecordedFrame frame : trace.getFrames()) {
                if (!LockTables.notApplication(frame.getMethod().getType().getName())) {
                    return frame;
                }
            }
        }
        return null;
    }
}
