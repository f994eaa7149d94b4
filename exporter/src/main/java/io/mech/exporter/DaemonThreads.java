package io.mech.exporter;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads for the endpoint: daemons named {@code <prefix>N}, so they never hold the host's exit and say they are mech's. */
final class DaemonThreads implements ThreadFactory {

    private final String prefix;
    private final AtomicInteger count = new AtomicInteger();

    /** @param prefix the start of every thread's name, such as {@code mech-prometheus-} */
    DaemonThreads(final String prefix) {
        this.prefix = prefix;
    }

    @Override
    public Thread newThread(final Runnable task) {
        final Thread thread = new Thread(task, prefix + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
