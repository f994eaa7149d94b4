package io.mech.probes.locks;

import java.util.Objects;

/**
 * A thread and how many events named it: for monitor contention the thread that owned the
 * monitor just before (the one the waiter waited for), for waits the notifier.
 *
 * @param thread the thread's name
 * @param count  events naming it
 */
public record ThreadCount(String thread, long count) {
    /** Validates. */
    public ThreadCount {
        Objects.requireNonNull(thread, "thread");
    }
}
