package io.mech.probes.profiler;

/** Something that can ask for a capture, polled on the profiler's thread. */
public interface TriggerSource {

    /** The trigger's name, as captures are named after it: hiccup, lock, queue. */
    String name();

    /**
     * Looks for trouble since the last poll; called every {@link Profiler#POLL_MILLIS} on the
     * profiler's thread only, so it may keep plain state.
     *
     * @param nowNanos System.nanoTime() of this poll
     * @return what was seen, for the capture's metadata, or null when nothing was
     */
    String check(long nowNanos);
}
