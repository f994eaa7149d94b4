package io.mech.probes;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The one loop mech's periodic background work runs on (the deadlock checks, the queue and lock
 * samplers, the periodic report), after Agrona's {@code AgentRunner}: a duty called on a daemon
 * thread of its own every period, one way to stop it, one way to fail.
 *
 * <ul>
 *   <li>A duty held up (a loaded machine, a GC) skips the rounds it missed rather than run in a
 *       burst to catch up.</li>
 *   <li>A duty that throws is one warning, naming the thread, and the runner ends: a probe that
 *       fails every round would otherwise warn every round.</li>
 *   <li>A round that meets an {@link OutOfMemoryError} is lost, without a word, and the runner goes on: a full heap is the host's trouble and passes,
 *       and mech must still be there when it does.</li>
 *   <li>{@link #close} never waits and never interrupts: the duty may be writing a file, and the
 *       host's exit must not wait for it. A round under way finishes; no round starts after.</li>
 * </ul>
 *
 * <p>Threads: {@link #start}, {@link #begin} and {@link #close} may be called from any thread; the duty runs on the
 * runner's thread only, so its own state needs no lock against itself. The stop signal is a latch,
 * which publishes the close to the runner's thread.
 */
public final class Periodic implements AutoCloseable {

    /** Work done every round. */
    @FunctionalInterface
    public interface Duty {
        /**
         * One round.
         *
         * @throws Exception when the duty cannot go on: one warning, and the runner ends
         */
        void run() throws Exception;
    }

    private final CountDownLatch closed = new CountDownLatch(1);
    private final Thread thread;

    private Periodic(final String name, final long periodNanos, final boolean atOnce, final Duty duty,
                     final Consumer<String> warnings) {
        this.thread = new Thread(() -> loop(periodNanos, atOnce, duty, warnings, name), name);
        thread.setDaemon(true);
    }

    /**
     * Starts running a duty.
     *
     * @param name        the thread's name, beginning with {@code mech-}, which is also how the
     *                    probes tell mech's threads from the host's
     * @param periodNanos the time from one round's start to the next's
     * @param atOnce      whether the first round runs at once rather than after one period
     * @param duty        the work of a round
     * @param warnings    receives one line when the duty throws
     * @return the running runner
     */
    public static Periodic start(final String name, final long periodNanos, final boolean atOnce, final Duty duty,
                                 final Consumer<String> warnings) {
        final Periodic periodic = unstarted(name, periodNanos, atOnce, duty, warnings);
        periodic.begin();
        return periodic;
    }

    /**
     * A runner whose duty may close it: its owner keeps it in a final field and then calls
     * {@link #begin}, so that the duty's first round, which may run at once, finds it there.
     *
     * @see #start(String, long, boolean, Duty, Consumer)
     */
    public static Periodic unstarted(final String name, final long periodNanos, final boolean atOnce, final Duty duty,
                                     final Consumer<String> warnings) {
        if (!MechThreads.isMechs(name) || periodNanos <= 0) {
            throw new IllegalArgumentException("a runner needs a mech- name and a positive period: " + name + ", " + periodNanos);
        }
        return new Periodic(name, periodNanos, atOnce, duty, warnings);
    }

    /** Starts an {@link #unstarted} runner's rounds; once. */
    public void begin() {
        thread.start();
    }

    private void loop(final long periodNanos, final boolean atOnce, final Duty duty, final Consumer<String> warnings,
                      final String name) {
        long next = System.nanoTime();
        try {
            if (!atOnce) {
                next += periodNanos;
            }
            while (!closed.await(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                try {
                    duty.run();
                } catch (final OutOfMemoryError full) {
                    // The heap is the host's, and full for now: this round is lost, the next may find
                    // memory. Nothing here: code run for the first time under a full heap may need
                    // memory to link.
                }
                next = Math.max(next + periodNanos, System.nanoTime());
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final Exception | LinkageError e) {
            warnings.accept(name + " stopped (" + e + ")");
        }
    }

    /** @return whether the runner's thread still runs: false once closed and its round is done, or once its duty failed */
    public boolean running() {
        return thread.isAlive();
    }

    /** Starts no further round; returns at once. */
    @Override
    public void close() {
        closed.countDown();
    }
}
