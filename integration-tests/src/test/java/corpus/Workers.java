package corpus;

import java.util.ArrayList;
import java.util.List;

/**
 * The threads of a corpus host: each runs its loop from {@code main} on until mech's
 * false-sharing window has given its verdicts, so every loop is running, compiled, long before
 * the window opens, and the host ends as soon as the window is over.
 *
 * <p>Thread contract: the host's main thread starts the workers and is the only writer of
 * {@link #running}; workers only read it. The class is in no package the tests include, so the
 * flag is never counted.
 */
public final class Workers {

    /** The system property mech sets when the false-sharing window's verdicts are in. */
    static final String DONE = "io.mech.falsesharing.done";
    /** The longest a host waits for the window, then ends with {@link #LATE}. */
    private static final long WAIT_MILLIS = 40_000;
    /** The exit code of a host whose window never ended. */
    public static final int LATE = 3;

    private static volatile boolean running = true;

    private final List<Thread> threads = new ArrayList<>();

    /** @return whether the workers are to go on */
    public static boolean running() {
        return running;
    }

    /**
     * Starts a worker.
     *
     * @param name the thread's name, as verdicts name it
     * @param loop runs until {@link #running()} is false
     * @return this
     */
    public Workers start(final String name, final Runnable loop) {
        final Thread thread = new Thread(loop, name);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
        return this;
    }

    /**
     * Waits until mech's window is done, polling the property it sets, then stops the workers.
     *
     * @return 0, or {@link #LATE} when the window did not end in time
     */
    public int awaitWindowThenStop() throws InterruptedException {
        final long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
        while (System.getProperty(DONE) == null && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        running = false;
        for (final Thread thread : threads) {
            thread.join(5_000);
        }
        return System.getProperty(DONE) == null ? LATE : 0;
    }
}
