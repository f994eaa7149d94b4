package io.mech.agent.runtime;

import io.mech.exporter.InternalErrors;
import java.util.function.Consumer;

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
    private final Consumer<Thread> died;

    /**
     * @param errors where what escapes a thread is counted
     * @param died   told of each thread that died, after the count; must not allocate
     */
    MechThreadGroup(final InternalErrors errors, final Consumer<Thread> died) {
        super("mech");
        this.errors = errors;
        this.died = died;
    }

    @Override
    public void uncaughtException(final Thread thread, final Throwable failure) {
        errors.failed(thread.getName(), failure);
        died.accept(thread);
    }
}
