package io.mech.agent;

import io.mech.exporter.InternalErrors;

/**
 * The thread group of every thread mech starts: a thread made by one of mech's threads joins its
 * maker's group, so {@code mech-start}, {@code mech-stop} and the thread that starts the parts
 * before main bring every part's threads in. What escapes one of them is counted among mech's
 * internal errors, under the thread's name, and never printed: the JDK's default prints the
 * stack trace on the host's stderr, and under a full heap that printing itself threw (an
 * {@code OutOfMemoryError} "thrown from the UncaughtExceptionHandler in thread mech-start").
 *
 * <p>Thread contract: any of mech's threads may end here; {@link InternalErrors} is thread-safe
 * and never throws.
 */
final class MechThreadGroup extends ThreadGroup {

    private final InternalErrors errors;

    /** @param errors where what escapes a thread is counted */
    MechThreadGroup(final InternalErrors errors) {
        super("mech");
        this.errors = errors;
    }

    @Override
    public void uncaughtException(final Thread thread, final Throwable failure) {
        errors.failed(thread.getName(), failure);
    }
}
