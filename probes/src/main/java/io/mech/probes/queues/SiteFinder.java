package io.mech.probes.queues;

import java.util.Optional;

/**
 * Names where a queue was created: the first frame of the creating thread's stack that belongs
 * to the application, found with a {@link StackWalker}. Frames of the JDK, of mech (its example
 * kernels excepted: they are the user's code here) and of the queue's own class and superclasses
 * (chained and inherited constructors) and JCTools' factories are skipped. A walk costs microseconds, so at most
 * {@value #WALKS_PER_SECOND} are taken per second (a burst of as many first); past that
 * {@link #find} answers {@link #LIMITED} and the queue goes unregistered and counted.
 *
 * <p>Guarantees: thread safe; {@link #find} never throws.
 */
final class SiteFinder {

    /** Walks allowed per second, and the burst allowed at once. */
    static final int WALKS_PER_SECOND = 200;
    /** Answer when the rate limit refused a walk. */
    static final String LIMITED = "";

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final long NANOS_PER_WALK = 1_000_000_000L / WALKS_PER_SECOND;

    /** The time the bucket was last full: tokens are (now - this) / NANOS_PER_WALK, capped. */
    private long fullAt = System.nanoTime() - WALKS_PER_SECOND * NANOS_PER_WALK;

    /**
     * @param created the queue or executor whose constructor is on the stack
     * @return class.method:line of the first application frame; null when there is none (the
     *         JDK's own queue); {@link #LIMITED} when the rate limit refused the walk
     */
    String find(final Object created) {
        if (!take()) {
            return LIMITED;
        }
        final Class<?> type = created.getClass();
        try {
            final Optional<StackWalker.StackFrame> frame = WALKER.walk(frames -> frames
                .filter(f -> !f.getDeclaringClass().isAssignableFrom(type) && !notApplication(f.getClassName()))
                .findFirst());
            return frame.map(f -> f.getLineNumber() > 0 ? f.getClassName() + "." + f.getMethodName() + ":" + f.getLineNumber()
                : f.getClassName() + "." + f.getMethodName()).orElse(null);
        } catch (final RuntimeException e) {
            return null;
        }
    }

    private synchronized boolean take() {
        final long now = System.nanoTime();
        final long earliest = now - WALKS_PER_SECOND * NANOS_PER_WALK;
        if (fullAt < earliest) {
            fullAt = earliest;
        }
        if (now - fullAt < NANOS_PER_WALK) {
            return false;
        }
        fullAt += NANOS_PER_WALK;
        return true;
    }

    /** Whether a frame's class is the JDK's or mech's own (its example kernels are the user's code). */
    static boolean notApplication(final String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
            || className.startsWith("sun.") || className.startsWith("com.sun.") || className.startsWith("org.jctools.")
            || className.startsWith("io.mech.") && !className.startsWith("io.mech.examples.");
    }
}
