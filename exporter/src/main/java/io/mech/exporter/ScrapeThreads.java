package io.mech.exporter;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The executor of mech's HTTP server: a few threads, a short waiting list, and a deadline on
 * every exchange's reads and writes.
 *
 * <p>Why deadlines of its own: the JDK's server hands a connection to its executor as soon as the
 * first byte of a request arrives, and the exchange then reads the rest, and later writes the
 * response, with blocking calls that have no timeout. A client that trickles its request or never
 * reads its response holds a thread for as long as it likes. The server's own bounds
 * ({@code sun.net.httpserver.maxReqTime} and {@code maxRspTime}, JDK 17 to 25) are system
 * properties read once per JVM: they would bound the host's own servers too. So at an exchange's
 * deadline the timeout thread interrupts the thread running it; the channel that thread is
 * blocked on is interruptible, so the interrupt closes it, the exchange fails with an
 * IOException and the server drops the connection.
 *
 * <p>Phases, told by the handler on the exchange's thread: an exchange starts reading, with
 * {@link #READ_TIMEOUT_SECONDS} from the moment a thread takes it, through the TLS handshake and
 * authentication, to the handler. The handler calls {@link #collecting()} on entry: no deadline
 * while mech's sources are read, because an interrupt there would close channels that are not
 * the client's (the control JVM's log, for one). It calls {@link #responding()} before it sends
 * the response headers: {@link #WRITE_TIMEOUT_SECONDS} from there to the end of the exchange.
 *
 * <p>Bounds: at most {@link #MAX_THREADS} threads, each ending after a minute idle; at most
 * {@link #MAX_WAITING} exchanges wait for one, and the server closes any connection beyond that
 * unanswered. As the waiting list is no longer than the threads are many, a scrape that gets in
 * line behind clients trickling their requests runs within one read timeout; one that finds the
 * line full is refused at once, so Prometheus records a failed scrape rather than a late one.
 * Behind clients that do not read their responses it waits up to the write timeout. Every
 * timeout and refusal is counted in {@link ClientErrors}.
 */
final class ScrapeThreads implements Executor {

    /** The most exchanges served at once. */
    static final int MAX_THREADS = 4;
    /** The most exchanges waiting for a thread. */
    static final int MAX_WAITING = 4;
    /** From a thread taking an exchange up to its handler; generous for a TLS handshake over a slow link. */
    static final long READ_TIMEOUT_SECONDS = 3;
    /** From the response headers to the last byte: Prometheus's default scrape timeout, past which no scraper waits. */
    static final long WRITE_TIMEOUT_SECONDS = 10;

    private static final long READ_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(READ_TIMEOUT_SECONDS);
    private static final long WRITE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(WRITE_TIMEOUT_SECONDS);
    private static final long IDLE_SECONDS = 60;
    /** The exchange the current thread runs; unset on threads other than this executor's. */
    private static final ThreadLocal<Guarded> CURRENT = new ThreadLocal<>();

    private final ClientErrors errors;
    private final ThreadPoolExecutor workers;
    private final ScheduledThreadPoolExecutor timeouts;

    /** @param errors where timeouts and refusals are counted */
    ScrapeThreads(final ClientErrors errors) {
        this.errors = errors;
        workers = new ThreadPoolExecutor(MAX_THREADS, MAX_THREADS, IDLE_SECONDS, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(MAX_WAITING), new DaemonThreads("mech-prometheus-"), (exchange, pool) -> {
                if (!pool.isShutdown()) {
                    errors.count(ClientErrors.Reason.REJECTED);
                }
                // The server's dispatcher closes a connection whose exchange its executor refuses.
                throw new RejectedExecutionException("every scrape thread is busy");
            });
        workers.allowCoreThreadTimeOut(true);
        timeouts = new ScheduledThreadPoolExecutor(1, new DaemonThreads("mech-prometheus-timeouts-"));
        timeouts.setRemoveOnCancelPolicy(true);
        timeouts.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
        timeouts.allowCoreThreadTimeOut(true);
    }

    /** Called by the server's dispatcher with an exchange whose first request byte has arrived. */
    @Override
    public void execute(final Runnable exchange) {
        workers.execute(new Guarded(exchange));
    }

    /** Called by a handler on entry: no deadline while it collects. A no-op on other threads. */
    static void collecting() {
        final Guarded current = CURRENT.get();
        if (current != null) {
            current.disarm();
        }
    }

    /** Called by a handler before it sends the response headers: the write deadline starts. A no-op on other threads. */
    static void responding() {
        final Guarded current = CURRENT.get();
        if (current != null) {
            current.arm(WRITE_TIMEOUT_NANOS);
        }
    }

    /** @return true when the current thread's exchange ran past its deadline, so its IOException is already counted */
    static boolean timedOut() {
        final Guarded current = CURRENT.get();
        return current != null && current.expired();
    }

    /** Exchanges in flight or waiting, for tests. */
    int busy() {
        return workers.getActiveCount() + workers.getQueue().size();
    }

    /** Threads alive, for tests. */
    int size() {
        return workers.getPoolSize();
    }

    /** Stops the threads; exchanges still running are interrupted, which closes their connections. */
    void shutdown() {
        workers.shutdownNow();
        timeouts.shutdownNow();
    }

    /**
     * One exchange and its deadline. The timeout thread interrupts only under this object's lock
     * and only before {@link #end}, so once the exchange's thread has ended it, no interrupt is
     * pending for the next exchange it takes.
     */
    private final class Guarded implements Runnable {

        private final Runnable exchange;
        private final Runnable expiry = this::expire;
        private Thread thread;
        /** The armed deadline; null while there is none. */
        private ScheduledFuture<?> timeout;
        private boolean expired;
        private boolean ended;

        Guarded(final Runnable exchange) {
            this.exchange = exchange;
        }

        @Override
        public void run() {
            synchronized (this) {
                thread = Thread.currentThread();
            }
            arm(READ_TIMEOUT_NANOS);
            CURRENT.set(this);
            try {
                exchange.run();
            } finally {
                CURRENT.remove();
                end();
                Thread.interrupted();
            }
        }

        synchronized void arm(final long nanos) {
            disarm();
            if (!ended && !expired) {
                try {
                    timeout = timeouts.schedule(expiry, nanos, TimeUnit.NANOSECONDS);
                } catch (final RejectedExecutionException stopping) {
                    // shutdown() came first: it interrupts this exchange, which needs no deadline
                    // (a scrape that came in as the host exited, ci34)
                }
            }
        }

        synchronized void disarm() {
            if (timeout != null) {
                timeout.cancel(false);
                timeout = null;
            }
        }

        synchronized boolean expired() {
            return expired;
        }

        private synchronized void end() {
            disarm();
            ended = true;
        }

        /** Runs on the timeout thread. An expiry cancelled while it was starting finds its deadline gone or moved, and does nothing. */
        private synchronized void expire() {
            if (ended || timeout == null || timeout.getDelay(TimeUnit.NANOSECONDS) > 0) {
                return;
            }
            timeout = null;
            expired = true;
            errors.count(ClientErrors.Reason.TIMEOUT);
            thread.interrupt();
        }
    }
}
