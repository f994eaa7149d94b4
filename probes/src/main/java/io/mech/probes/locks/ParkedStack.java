package io.mech.probes.locks;

import java.util.List;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * What the stack of a thread parked in a java.util.concurrent synchronizer says about the wait:
 * which synchronizer the application called, and whether the thread is a worker waiting for its
 * next task. Stateless; called on JFR's stream thread only.
 *
 * <p>A worker waiting for work is told by the shape of its stack, not by a list of executors:
 * whatever pool it belongs to, the method that takes the next task from its queue returns that
 * task, and every executor's task is a {@link Runnable} ({@code Executor.execute} takes nothing
 * else). So a park under a frame whose method returns a {@code Runnable} is a worker idle on its
 * own queue: the JDK's {@code ThreadPoolExecutor.getTask} (over a {@code LinkedBlockingQueue},
 * a {@code SynchronousQueue} or a {@code ScheduledThreadPoolExecutor}'s delayed queue), Jetty's
 * {@code QueuedThreadPool} idle poll, Netty's {@code takeTask}. A pool's borrow returns the
 * pooled item, never a {@code Runnable}, and a task that borrows runs after its get-task call
 * has returned, so no such frame is on its stack. A list of names would miss the next library's
 * pool and the JDK's own renamings (SynchronousQueue's internals changed in JDK 21). The rule
 * holds for parks on a lock too: a worker woken on its queue's condition parks on the queue's
 * lock to take it back. Idle ForkJoinPool workers and an event loop's select need no rule: the
 * first park has only the JDK's frames, so it has no site in the application, and the second is
 * no park at all.
 */
final class ParkedStack {

    /** How a method returning a task ends its descriptor. */
    private static final String RETURNS_TASK = ")Ljava/lang/Runnable;";

    private ParkedStack() {
    }

    /**
     * The synchronizer the application called: the class of the last of the JDK's frames above
     * the first frame outside the JDK, {@code java.util.concurrent.SynchronousQueue} for a thread
     * in its {@code poll}, however the JDK implements it underneath (JDK 17 parks in its
     * TransferStack, JDK 21 and later in LinkedTransferQueue's code). The parked-on object would
     * name the internals instead: a LinkedBlockingQueue's condition, a Semaphore's Sync.
     *
     * @param trace the parked thread's stack, top first
     * @return a class name, or null when the top frame is outside the JDK or every frame is the JDK's
     */
    static String synchronizer(final RecordedStackTrace trace) {
        if (trace == null) {
            return null;
        }
        final List<RecordedFrame> frames = trace.getFrames();
        for (int i = 1; i < frames.size(); i++) {
            if (!LockTables.jdk(className(frames.get(i)))) {
                return LockTables.jdk(className(frames.get(i - 1))) ? className(frames.get(i - 1)) : null;
            }
        }
        return null;
    }

    /**
     * @param trace the parked thread's stack, top first; null when JFR recorded none
     * @return whether a frame's method returns a {@code Runnable}: the thread is a worker waiting
     *         for its next task (see the class comment)
     */
    static boolean waitingForTask(final RecordedStackTrace trace) {
        if (trace != null) {
            for (final RecordedFrame frame : trace.getFrames()) {
                final String descriptor = frame.getMethod().getDescriptor();
                if (descriptor != null && descriptor.endsWith(RETURNS_TASK)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String className(final RecordedFrame frame) {
        final RecordedMethod method = frame.getMethod();
        return method.getType().getName();
    }
}
