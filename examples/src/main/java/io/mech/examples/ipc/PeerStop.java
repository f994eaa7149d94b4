package io.mech.examples.ipc;

import io.mech.examples.VariantUnavailableException;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Stops a process with SIGSTOP for a while, then continues it with SIGCONT, on a thread of its
 * own ({@code ipc-peer-stop}) so the producer's loop never waits for {@code kill}.
 *
 * <p>Threading: {@link #schedule} and {@link #finish} are called by one thread; the stop thread
 * writes the times, which that thread reads after {@link #finish} has joined it.
 */
final class PeerStop {

    private final long pid;
    private final long afterNanos;
    private final long lengthNanos;
    private final Thread thread;
    private long stoppedAtMillis = -1;
    private long stoppedNanos;
    private Exception failure;

    private PeerStop(final long pid, final long afterNanos, final long lengthNanos) {
        this.pid = pid;
        this.afterNanos = afterNanos;
        this.lengthNanos = lengthNanos;
        this.thread = new Thread(this::stopAndContinue, "ipc-peer-stop");
        thread.setDaemon(true);
    }

    /**
     * @param pid         the process to stop
     * @param afterNanos  from now to the stop
     * @param lengthNanos how long it stays stopped
     * @return the running schedule
     */
    static PeerStop schedule(final long pid, final long afterNanos, final long lengthNanos) {
        final PeerStop stop = new PeerStop(pid, afterNanos, lengthNanos);
        stop.thread.start();
        return stop;
    }

    private void stopAndContinue() {
        try {
            TimeUnit.NANOSECONDS.sleep(afterNanos);
            signal("STOP");
            final long stopped = System.nanoTime();
            stoppedAtMillis = System.currentTimeMillis();
            try {
                TimeUnit.NANOSECONDS.sleep(lengthNanos);
            } finally {
                signal("CONT");
                stoppedNanos = System.nanoTime() - stopped;
            }
        } catch (final InterruptedException | IOException e) {
            failure = e;
        }
    }

    private void signal(final String signal) throws IOException, InterruptedException {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
        if (kill.waitFor() != 0) {
            throw new IOException("kill -" + signal + " " + pid + " exited with " + kill.exitValue());
        }
    }

    /**
     * Waits for the stop and the continue to have happened. A stop thread that outlives its
     * schedule by 10 s is interrupted, which still continues the process: a peer never stays stopped.
     *
     * @throws VariantUnavailableException when this system could not signal the process
     * @throws InterruptedException if the caller is interrupted
     */
    void finish() throws InterruptedException {
        thread.join(TimeUnit.NANOSECONDS.toMillis(afterNanos + lengthNanos) + 10_000);
        if (thread.isAlive()) {
            thread.interrupt();
            thread.join();
        }
        if (failure instanceof IOException) {
            throw new VariantUnavailableException("cannot stop the peer process: " + failure.getMessage());
        }
    }

    /** @return when the stop began, epoch milliseconds; -1 when it never did */
    long stoppedAtMillis() {
        return stoppedAtMillis;
    }

    /** @return how long the process stayed stopped, in milliseconds */
    long stoppedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(stoppedNanos);
    }
}
