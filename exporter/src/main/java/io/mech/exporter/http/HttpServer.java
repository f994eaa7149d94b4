package io.mech.exporter.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * An HTTP/1.1 server on blocking sockets: one accepting thread, at most {@link #MAX_THREADS}
 * serving threads, each taking one connection at a time, and one deadline thread
 * ({@link Deadlines}). Plain or TLS alike: a TLS connection is layered on the accepted socket.
 *
 * <p>Bounds: a connection waits for a serving thread in a line of at most {@link #MAX_WAITING};
 * one that finds the line full is closed at once and counted, so a scraper records a failed
 * scrape rather than a late one. From a serving thread taking a connection (or the first byte of
 * its next request) the request's head has {@link #READ_TIMEOUT_SECONDS} to arrive, TLS handshake
 * included; from its first byte the response has {@link #WRITE_TIMEOUT_SECONDS} to be taken. The
 * handler's own work has no deadline. Heads longer than 8 KiB are answered 431; a request with a
 * body is answered and its connection closed, as its body is never read.
 *
 * <p>Kept-alive connections: after a response, a serving thread waits up to
 * {@link #IDLE_MILLIS} for the connection's next request, as scrapers such as Prometheus reuse
 * theirs. A new connection that finds every serving thread so waiting and none free takes the
 * place of one of them, which is closed: its client opens a new one next time. A connection whose
 * client sends request after request keeps its thread only while no other connection waits: the
 * response it gets while one does closes it.
 *
 * <p>Every thread is a daemon named {@code <name>-...}; the serving threads start as connections
 * come, and the deadline thread parks while no deadline is armed.
 */
public final class HttpServer implements AutoCloseable {

    /** The most connections served at once. */
    public static final int MAX_THREADS = 4;
    /** The most connections waiting for a serving thread. */
    public static final int MAX_WAITING = 4;
    /** For a request's head to arrive; generous for a TLS handshake over a slow link. */
    public static final long READ_TIMEOUT_SECONDS = 3;
    /** For a response to be taken: Prometheus's default scrape timeout, past which no scraper waits. */
    public static final long WRITE_TIMEOUT_SECONDS = 10;
    /** How long a kept-alive connection waits for its next request: longer than Prometheus's default 15 s interval. */
    public static final int IDLE_MILLIS = 30_000;

    private static final byte[] NO_BODY = new byte[0];
    /** How long the accepting thread waits after a failed accept, so that running out of file descriptors is no busy loop. */
    private static final long ACCEPT_RETRY_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final ServerSocket socket;
    private final SSLContext tls;
    private final Handler handler;
    private final Drops drops;
    private final ThreadPoolExecutor workers;
    /** Each serving thread's reusable state, made on its first connection and found again by its thread. */
    private final AtomicReferenceArray<Serving> serving = new AtomicReferenceArray<>(MAX_THREADS);
    private final Deadlines deadlines;
    private volatile boolean closed;

    private HttpServer(final ServerSocket socket, final SSLContext tls, final Handler handler, final Drops drops, final String name) {
        this.socket = socket;
        this.tls = tls;
        this.handler = handler;
        this.drops = drops;
        this.deadlines = new Deadlines(MAX_THREADS, drops);
        final AtomicInteger count = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(MAX_THREADS, MAX_THREADS, 0, TimeUnit.SECONDS, new ArrayBlockingQueue<>(MAX_WAITING),
            task -> thread(task, name + "-" + count.incrementAndGet()), (connection, pool) -> {
                throw new RejectedExecutionException("every serving thread is busy and the line is full");
            });
    }

    /**
     * Binds and starts serving.
     *
     * @param address where to listen
     * @param tls     the TLS context, or null for plain HTTP
     * @param handler answers every request
     * @param drops   told of every connection given up on
     * @param name    the start of every thread's name
     * @return the running server
     * @throws IOException when the address cannot be bound
     */
    public static HttpServer start(final InetSocketAddress address, final SSLContext tls, final Handler handler, final Drops drops,
                                   final String name) throws IOException {
        final ServerSocket socket = new ServerSocket();
        final HttpServer server;
        try {
            socket.setReuseAddress(true);
            socket.bind(address, 64);
            server = new HttpServer(socket, tls, handler, drops, name);
        } catch (final IOException | RuntimeException | Error e) {
            socket.close();
            throw e;
        }
        try {
            // deadlines first: a connection is never served without them
            server.thread(server.deadlines, name + "-deadlines").start();
            server.thread(server::accept, name).start();
            return server;
        } catch (final RuntimeException | Error e) {
            server.close();
            throw e;
        }
    }

    /** @return the port listened on */
    public int port() {
        return socket.getLocalPort();
    }

    /** @return connections being served or waiting for a thread, for tests */
    public int busy() {
        return workers.getActiveCount() + workers.getQueue().size();
    }

    /** @return kept-alive connections waiting for their next request, for tests */
    int idle() {
        int idle = 0;
        for (int i = 0; i < MAX_THREADS; i++) {
            final Serving thread = serving.get(i);
            if (thread != null && thread.idle.get() != null) {
                idle++;
            }
        }
        return idle;
    }

    /** @return serving threads started, for tests */
    public int threads() {
        return workers.getPoolSize();
    }

    /** Stops accepting, closes every connection and ends the threads. */
    @Override
    public void close() {
        closed = true;
        try {
            socket.close();
        } catch (final IOException ignored) {
            // the accepting thread ends either way
        }
        deadlines.stop();
        for (final Runnable left : workers.shutdownNow()) {
            ((Connection) left).abandon();
        }
        for (int i = 0; i < MAX_THREADS; i++) {
            final Serving thread = serving.get(i);
            if (thread != null) {
                thread.stop();
            }
        }
    }

    private Thread thread(final Runnable body, final String threadName) {
        final Thread thread = new Thread(body, threadName);
        thread.setDaemon(true);
        return thread;
    }

    /** The accepting thread's loop, which only closing ends: a failure closes the one connection it was taking. */
    private void accept() {
        while (!closed) {
            Socket connection = null;
            try {
                connection = socket.accept();
                workers.execute(new Connection(connection));
                // queued behind threads that may wait on idle connections: one of them gives its thread up. A thread
                // between two connections would take it anyway, and the evicted client only opens a new connection.
                if (!workers.getQueue().isEmpty()) {
                    evictIdle();
                }
            } catch (final RejectedExecutionException full) {
                if (!closed) {
                    drops.rejected();
                }
                closeQuietly(connection);
            } catch (final IOException | RuntimeException | OutOfMemoryError e) {
                // out of file descriptors, a connection reset while queued, or a full heap: a later accept may succeed
                if (connection != null) {
                    closeQuietly(connection);
                }
                if (!closed) {
                    LockSupport.parkNanos(ACCEPT_RETRY_NANOS);
                }
            }
        }
    }

    /** One accepted connection, to be served by the first free serving thread. */
    private final class Connection implements Runnable {

        private final Socket socket;

        Connection(final Socket socket) {
            this.socket = socket;
        }

        @Override
        public void run() {
            try {
                Serving state = servingOf(Thread.currentThread());
                if (state == null) {
                    state = new Serving();
                }
                state.serveAndClose(socket);
            } catch (final Throwable e) {
                // a full heap, a deep stack or a class that failed to load: this connection closes, and the thread lives
                // on to serve the next, as a thread that died would leave its slot to nobody
                closeQuietly(socket);
            } finally {
                Thread.interrupted();
            }
        }

        void abandon() {
            closeQuietly(socket);
        }
    }

    private Serving servingOf(final Thread thread) {
        for (int i = 0; i < MAX_THREADS; i++) {
            final Serving state = serving.get(i);
            if (state != null && state.thread == thread) {
                return state;
            }
        }
        return null;
    }

    /** Closes one connection kept alive and idle, so that its thread takes the new one. */
    private void evictIdle() {
        for (int i = 0; i < MAX_THREADS; i++) {
            final Serving thread = serving.get(i);
            if (thread != null && thread.evict()) {
                return;
            }
        }
    }

    private static void closeQuietly(final Socket connection) {
        try {
            connection.close();
        } catch (final IOException ignored) {
            // nothing more to give up
        }
    }

    /**
     * One serving thread's state, reused from connection to connection. Its fields are its own,
     * but for {@link #idle}, which the accepting thread takes to evict, and {@link #current} and
     * {@link #thread}, which closing reads.
     */
    private final class Serving {

        private final byte[] buffer = new byte[Request.MAX_HEAD];
        private final Request request = new Request(buffer);
        private final Deadlines.Slot deadline;
        private final Response response;
        /** The connection waiting, kept alive, for its next request; taken by the accepting thread to evict it. */
        private final AtomicReference<Socket> idle = new AtomicReference<>();
        private final Thread thread = Thread.currentThread();
        private volatile Socket current;

        /**
         * Made on its serving thread, which takes a free slot: there are as many as threads, and one
         * whose thread ended is free again.
         */
        Serving() {
            final int index = claim();
            try {
                deadline = deadlines.slot(index);
                response = new Response(deadline);
            } catch (final Throwable e) {
                serving.set(index, null);
                throw e;
            }
        }

        private int claim() {
            for (int i = 0; i < MAX_THREADS; i++) {
                final Serving held = serving.get(i);
                if ((held == null || !held.thread.isAlive()) && serving.compareAndSet(i, held, this)) {
                    return i;
                }
            }
            throw new IllegalStateException("no free slot for serving thread " + thread.getName());
        }

        void serveAndClose(final Socket connection) {
            current = connection;
            try {
                serve(connection);
            } finally {
                current = null;
                deadline.release();
                closeQuietly(connection);
            }
        }

        void stop() {
            thread.interrupt();
            final Socket open = current;
            if (open != null) {
                closeQuietly(open);
            }
        }

        /** Called by the accepting thread: closes the idle connection, if there is one; true when there was. */
        boolean evict() {
            final Socket waitingForNext = idle.getAndSet(null);
            if (waitingForNext == null) {
                return false;
            }
            try {
                waitingForNext.shutdownInput();
            } catch (final IOException ignored) {
                // closed already: its thread is free all the same
            }
            return true;
        }

        private void serve(final Socket connection) {
            deadline.serve(connection);
            deadline.arm(Deadlines.READ_NANOS);
            int filled = 0;
            boolean reading = false;
            try {
                connection.setTcpNoDelay(true);
                final Socket io = tls == null ? connection : layered(connection);
                final InputStream in = io.getInputStream();
                final OutputStream out = io.getOutputStream();
                boolean first = true;
                while (!closed) {
                    response.reset(out, false, true);
                    if (!first) {
                        filled = awaitNext(connection, in, filled);
                        if (filled < 0) {
                            return;
                        }
                        deadline.arm(Deadlines.READ_NANOS);
                    }
                    int end = Request.headEnd(buffer, 0, filled);
                    reading = filled > 0;
                    while (end < 0) {
                        if (filled == buffer.length) {
                            refuse(out, 431);
                            return;
                        }
                        final int read = in.read(buffer, filled, buffer.length - filled);
                        if (read < 0) {
                            // gone before a request, as a port check does, or within one
                            if (reading) {
                                dropped();
                            }
                            return;
                        }
                        reading = true;
                        end = Request.headEnd(buffer, filled, filled + read);
                        filled += read;
                    }
                    if (!deadline.disarm()) {
                        return;
                    }
                    final Request.Parsed parsed = request.parse(end);
                    if (parsed != Request.Parsed.OK) {
                        refuse(out, parsed == Request.Parsed.TOO_MANY_FIELDS ? 431 : 400);
                        return;
                    }
                    // a connection waiting for a thread takes this one's after its response: no client keeps a thread from the others
                    response.reset(out, request.isHead(), !request.keepsAlive() || request.hasBody() || !workers.getQueue().isEmpty());
                    boolean faulted = false;
                    try {
                        handler.handle(request, response);
                    } catch (final RuntimeException | Error handlersFault) {
                        // not the client's fault: it gets a 500, unless the response was begun
                        faulted = true;
                    }
                    if (!response.sent()) {
                        response.reset(out, request.isHead(), response.closes());
                        response.send(500, "text/plain; charset=utf-8", null, NO_BODY, 0);
                    } else if (faulted) {
                        // what the client got may be cut short: only closing tells it so
                        return;
                    }
                    if (response.closes()) {
                        return;
                    }
                    filled -= end;
                    System.arraycopy(buffer, end, buffer, 0, filled);
                    first = false;
                    reading = false;
                }
            } catch (final IOException e) {
                if (reading || response.sent()) {
                    dropped();
                }
            }
        }

        /**
         * Counts a connection that failed mid-request, mid-response or with its response unread,
         * unless its deadline closed it (counted as a timeout, or an idle end that counts nothing).
         */
        private void dropped() {
            if (deadline.disarm()) {
                drops.disconnected();
            }
        }

        /**
         * Waits, evictable, for the first bytes of the connection's next request past what is
         * buffered already; returns the bytes buffered, or -1 when the connection ended, idled out
         * or was evicted.
         */
        private int awaitNext(final Socket connection, final InputStream in, final int filled) throws IOException {
            if (filled > 0) {
                return filled;
            }
            idle.set(connection);
            // a connection waiting for a thread goes first; the accepting thread evicts this one if it queues one after this look
            if (!workers.getQueue().isEmpty()) {
                idle.set(null);
                return -1;
            }
            // a deadline, not a read timeout: empty TLS records would restart a read timeout for ever
            deadline.armIdle(Deadlines.IDLE_NANOS);
            int read;
            boolean failed = false;
            try {
                read = in.read(buffer, 0, buffer.length);
            } catch (final IOException idledOutEvictedOrReset) {
                read = -1;
                failed = true;
            }
            final boolean evicted = !idle.compareAndSet(connection, null);
            if (failed && !evicted && !closed) {
                // a client that took its response ends with a FIN; a reset says it left the response unread, or aborted
                dropped();
            }
            return read < 0 || evicted ? -1 : read;
        }

        private void refuse(final OutputStream out, final int status) throws IOException {
            response.reset(out, false, true);
            response.send(status, "text/plain; charset=utf-8", null, NO_BODY, 0);
        }
    }

    private Socket layered(final Socket connection) throws IOException {
        final SSLSocket layered = (SSLSocket) tls.getSocketFactory().createSocket(connection, null, connection.getPort(), true);
        layered.setUseClientMode(false);
        return layered;
    }
}
