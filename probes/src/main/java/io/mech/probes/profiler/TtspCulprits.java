package io.mech.probes.profiler;

import java.util.List;

/**
 * Who kept safepoints waiting, as sampled so far: the methods that were running on the CPU
 * while the JVM waited for its threads to reach a safepoint. Immutable.
 *
 * @param samples     samples taken inside synchronisation windows on threads running the
 *                    application's code (or the JDK's on a thread with no application frame);
 *                    the JVM's own threads, waiting for the others, are not among them
 * @param culprits    the methods those samples were in, most samples first; only those with
 *                    enough samples to stand for a wait rather than a thread caught on its way
 * @param unavailable why nothing was sampled (the profiler was busy or refused), or null
 */
public record TtspCulprits(long samples, List<Culprit> culprits, String unavailable) {

    /** Nothing sampled yet. */
    public static final TtspCulprits NONE = new TtspCulprits(0, List.of(), null);

    /**
     * One method sampled while a safepoint waited.
     *
     * @param method  the topmost application frame, class.method (the topmost JDK frame when the
     *                thread ran the JDK's code alone)
     * @param in      what that method was in when sampled: the frame above it (a JDK method such
     *                as {@code java.lang.System.arraycopy}, or a stub of the JVM's), empty when it
     *                was the top frame
     * @param samples samples in it
     */
    public record Culprit(String method, String in, long samples) {
    }

    /** Copies the list. */
    public TtspCulprits {
        culprits = List.copyOf(culprits);
    }

    /** The share of the samples one culprit holds, from 0 to 1. */
    public double share(final Culprit culprit) {
        return samples == 0 ? 0 : (double) culprit.samples() / samples;
    }
}
