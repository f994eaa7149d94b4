package io.mech.exporter;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Threads for the scrape handler: daemons named {@code mech-prometheus-N}, so they never hold the host's exit. */
final class DaemonThreads implements ThreadFactory {

    private final AtomicInteger count = new AtomicInteger();

    @Override
    public Thread newThread(final Runnable task) {
        final Thread thread = new Thread(task, "mech-prometheus-" + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
    }
}
