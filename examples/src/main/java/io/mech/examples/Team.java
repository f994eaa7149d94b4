package io.mech.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The named threads of one kernel run. The first failure raises {@link #stop()} so that partners
 * waiting on the failed thread give up, and {@link #join()} rethrows it.
 */
public final class Team {

    /** A body that may throw; failures surface from {@link #join()}. */
    @FunctionalInterface
    public interface Task {
        /** @throws Exception anything; the first one wins */
        void run() throws Exception;
    }

    /** How long to wait for the rest of a team once one member has failed. */
    private static final long GRACE_MILLIS = 2_000;

    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final StopSignal stop = new StopSignal();

    /** @return the team's stop flag: raised by the coordinator when time is up, or on failure */
    public StopSignal stop() {
        return stop;
    }

    /**
     * Starts a daemon thread, so that a wedged kernel can never keep the JVM alive.
     *
     * @param name a descriptive thread name, e.g. {@code spsc-producer}
     * @param task the body
     */
    public void start(final String name, final Task task) {
        final Thread thread = new Thread(() -> {
            try {
                task.run();
            } catch (final Throwable t) {
                failure.compareAndSet(null, t);
                stop.raise();
            }
        }, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    /**
     * Waits for every thread, then rethrows the first failure: checks and errors as they are,
     * anything else wrapped with the failing thread's story.
     *
     * @throws InterruptedException if the caller is interrupted
     */
    public void join() throws InterruptedException {
        for (final Thread thread : threads) {
            if (failure.get() == null) {
                thread.join();
            } else {
                thread.join(GRACE_MILLIS);
            }
        }
        final Throwable t = failure.get();
        if (t instanceof RuntimeException) {
            throw (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        if (t != null) {
            throw new IllegalStateException("a kernel thread failed: " + t, t);
        }
        for (final Thread thread : threads) {
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not finish");
            }
        }
    }

    /**
     * Sleeps for the run's duration, then raises {@link #stop()}.
     *
     * @param nanos how long to let the team run
     * @throws InterruptedException if the caller is interrupted
     */
    public void runFor(final long nanos) throws InterruptedException {
        final long deadline = System.nanoTime() + nanos;
        long left;
        while ((left = deadline - System.nanoTime()) > 0 && !stop.isRaised()) {
            TimeUnit.NANOSECONDS.sleep(Math.min(left, 10_000_000L));
        }
        stop.raise();
    }
}
