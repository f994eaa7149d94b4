package io.mech.probes.queues;

import io.mech.probes.MechCode;
import java.util.List;
import java.util.Queue;

/**
 * Names where a queue was created: the first frame of the creating thread's stack below the
 * queue's constructors (chained and inherited: the queue's own class and superclasses) that is
 * neither the JDK's nor a queue library's (their factories, the Disruptor's DSL), found with a
 * {@link StackWalker}. When that
 * frame is mech's ({@link MechCode}; its example kernels are the user's code here) mech made the
 * queue, on whichever thread: {@link #MECHS}; when there is none the queue is the JDK's own, and
 * so is one a library queue's constructor made, a part of that queue. A
 * walk costs microseconds, so at most {@value #WALKS_PER_SECOND} are taken per second (a burst of
 * as many first); past that {@link #find} answers {@link #LIMITED} and the queue goes
 * unregistered and counted.
 *
 * <p>Where that frame is a library's outside the application's packages (Netty's factory of its
 * event loops' task queues, Jetty's thread pool's constructor), every queue the library makes
 * has the same site; the site then goes on with {@code via} and the first frame further down that
 * is in the application's packages (the include), if one is within {@value #VIA_DEPTH} frames:
 * the call that made that event loop group or that server.
 *
 * <p>Guarantees: thread safe; {@link #find} never throws.
 */
final class SiteFinder {

    /** Walks allowed per second, and the burst allowed at once. */
    static final int WALKS_PER_SECOND = 200;
    /** Answer when the rate limit refused a walk. */
    static final String LIMITED = "";
    /** Answer for a queue mech's code made: never a site, which has a dot. */
    static final String MECHS = "mech";

    /** Frames below the site looked through for the application's own. */
    static final int VIA_DEPTH = 64;

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final long NANOS_PER_WALK = 1_000_000_000L / WALKS_PER_SECOND;

    /** The application's packages, binary-name prefixes ending in a dot. */
    private final List<String> application;
    /** The time the bucket was last full: tokens are (now - this) / NANOS_PER_WALK, capped. */
    private long fullAt = System.nanoTime() - WALKS_PER_SECOND * NANOS_PER_WALK;

    /** @param application the application's packages, binary-name prefixes ending in a dot */
    SiteFinder(final List<String> application) {
        this.application = List.copyOf(application);
    }

    /**
     * @param created the queue or executor whose constructor is on the stack
     * @return class.method:line of the creating application frame; {@link #MECHS} when mech's code
     *         created it; null when only the JDK did (the JDK's own queue) or another library
     *         queue's constructor (a part of that queue); {@link #LIMITED} when
     *         the rate limit refused the walk
     */
    String find(final Object created) {
        if (!take()) {
            return LIMITED;
        }
        final Class<?> type = created.getClass();
        try {
            // above the constructors: the probe's registration, called from the woven constructor
            final List<StackWalker.StackFrame> frames = WALKER.walk(all -> all
                .dropWhile(f -> !f.getDeclaringClass().isAssignableFrom(type))
                .dropWhile(f -> f.getDeclaringClass().isAssignableFrom(type))
                .dropWhile(f -> library(f.getClassName()) && !part(f))
                .limit(VIA_DEPTH)
                .toList());
            if (frames.isEmpty() || part(frames.get(0))) {
                return null;
            }
            final StackWalker.StackFrame site = frames.get(0);
            if (MechCode.contains(site.getClassName())) {
                return MECHS;
            }
            if (!applications(site)) {
                for (final StackWalker.StackFrame below : frames) {
                    if (applications(below)) {
                        return name(site) + " via " + name(below);
                    }
                }
            }
            return name(site);
        } catch (final RuntimeException e) {
            return null;
        }
    }

    private boolean applications(final StackWalker.StackFrame frame) {
        for (final String prefix : application) {
            if (frame.getClassName().startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static String name(final StackWalker.StackFrame f) {
        return f.getLineNumber() > 0 ? f.getClassName() + "." + f.getMethodName() + ":" + f.getLineNumber()
            : f.getClassName() + "." + f.getMethodName();
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

    /**
     * Whether a frame is a library queue's constructor: a queue made there is a part of that
     * queue (JCTools' MpmcUnboundedXaddArrayQueue pools its chunks in a queue of its own), the
     * library's and not the application's, however full it runs.
     */
    private static boolean part(final StackWalker.StackFrame frame) {
        return frame.getMethodName().equals("<init>") && library(frame.getClassName())
            && Queue.class.isAssignableFrom(frame.getDeclaringClass());
    }

    /**
     * Whether a frame's class is the JDK's or a queue library's (JCTools', Agrona's, the
     * Disruptor's): code that makes queues for whoever calls it.
     */
    static boolean library(final String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
            || className.startsWith("sun.") || className.startsWith("com.sun.") || className.startsWith("org.jctools.")
            || className.startsWith("org.agrona.") || className.startsWith("com.lmax.disruptor.");
    }
}
