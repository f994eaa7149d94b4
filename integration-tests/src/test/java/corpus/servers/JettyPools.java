package corpus.servers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Two Jetty 12 servers on 127.0.0.1, each with a {@link QueuedThreadPool} of {@link #WORKERS}
 * workers and a blocking handler that takes {@link #HANDLER_MILLIS} ms, as the queue corpus's
 * server case (io.mech.it.ServerQueuesTest). Each pool is made in a method of its own, so the
 * site of its job queue (Jetty's {@code BlockingArrayQueue}, which no include names) names the case:
 * <ul>
 *   <li>{@code light}: 3 keep-alive connections, fewer than the workers: its job queue stays empty;</li>
 *   <li>{@code loaded}: 32 keep-alive connections on 4 workers: requests queue for their turn.</li>
 * </ul>
 * Each connection sends a request as soon as the last answer arrived, for {@code seconds}. The
 * truth is measured at both ends: the client's round trip less the handler's own time is the time
 * a request spent queued (and in transit, a fraction of a millisecond on loopback). It prints
 * {@code case=<name> requests=<n> queued_ms=<mean> handler_ms=<mean>} for each, over the run's
 * last {@code measured} seconds, the span mech's wait estimate is smoothed over. Then it stops
 * both servers and lets them go, collecting until both pools are gone (within 10 s), and prints
 * {@code pools_collected=<true|false>}: the job queues are then among the queues collected before
 * exit, with the dozens of idle queues of the servers' buffers.
 */
public final class JettyPools {

    public static final int WORKERS = 4;
    public static final long HANDLER_MILLIS = 20;

    private JettyPools() {
    }

    public static void main(final String[] args) throws Exception {
        final List<WeakReference<Object>> pools = serve(Long.parseLong(args[0]), Long.parseLong(args[1]));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pools.stream().anyMatch(p -> p.get() != null) && System.nanoTime() < deadline) {
            System.gc();
        }
        System.out.println("pools_collected=" + pools.stream().noneMatch(p -> p.get() != null));
    }

    /** Serves both cases, stops both servers, and hands back their pools, weakly held. */
    private static List<WeakReference<Object>> serve(final long seconds, final long measured) throws Exception {
        final Site light = new Site(light());
        final Site loaded = new Site(loaded());
        final long start = System.nanoTime();
        final long from = start + TimeUnit.SECONDS.toNanos(seconds - measured);
        final long end = start + TimeUnit.SECONDS.toNanos(seconds);
        final List<Thread> clients = new ArrayList<>();
        clients.addAll(light.clients(3, from, end));
        clients.addAll(loaded.clients(32, from, end));
        for (final Thread client : clients) {
            client.join();
        }
        light.report("light");
        loaded.report("loaded");
        light.server.stop();
        loaded.server.stop();
        return List.of(new WeakReference<>(light.server.getThreadPool()), new WeakReference<>(loaded.server.getThreadPool()));
    }

    /** Workers plus the connector's acceptor and selector, which the pool leases for good. */
    private static QueuedThreadPool light() {
        return noneReserved(new QueuedThreadPool(WORKERS + 2, WORKERS + 2));
    }

    private static QueuedThreadPool loaded() {
        return noneReserved(new QueuedThreadPool(WORKERS + 2, WORKERS + 2));
    }

    /** No threads kept back for the selector's own use: every worker takes jobs from the queue. */
    private static QueuedThreadPool noneReserved(final QueuedThreadPool pool) {
        pool.setReservedThreads(0);
        return pool;
    }

    /** One server, its handler's time, and its clients' round trips. */
    private static final class Site {
        final Server server;
        final int port;
        final LongAdder handlerNanos = new LongAdder();
        final LongAdder handled = new LongAdder();
        final LongAdder tripNanos = new LongAdder();
        final LongAdder trips = new LongAdder();
        volatile long measuringFrom;

        Site(final QueuedThreadPool pool) throws Exception {
            server = new Server(pool);
            final ServerConnector connector = new ServerConnector(server, 1, 1);
            connector.setHost("127.0.0.1");
            connector.setPort(0);
            server.addConnector(connector);
            server.setHandler(new Handler.Abstract() {
                @Override
                public boolean handle(final Request request, final Response response, final Callback callback) throws Exception {
                    final long begin = System.nanoTime();
                    Thread.sleep(HANDLER_MILLIS);
                    final long took = System.nanoTime() - begin;
                    if (begin >= measuringFrom) {
                        handlerNanos.add(took);
                        handled.increment();
                    }
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 2);
                    response.write(true, ByteBuffer.wrap("ok".getBytes(StandardCharsets.US_ASCII)), callback);
                    return true;
                }
            });
            server.start();
            port = connector.getLocalPort();
        }

        List<Thread> clients(final int connections, final long from, final long end) {
            measuringFrom = from;
            final List<Thread> clients = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                final Thread client = new Thread(() -> {
                    try {
                        run(from, end);
                    } catch (final IOException e) {
                        throw new IllegalStateException(e);
                    }
                }, "corpus-client");
                client.start();
                clients.add(client);
            }
            return clients;
        }

        private void run(final long from, final long end) throws IOException {
            final byte[] request = ("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(30_000);
                final OutputStream out = socket.getOutputStream();
                final InputStream in = socket.getInputStream();
                long now;
                while ((now = System.nanoTime()) < end) {
                    out.write(request);
                    out.flush();
                    readResponse(in);
                    if (now >= from) {
                        tripNanos.add(System.nanoTime() - now);
                        trips.increment();
                    }
                }
            }
        }

        /** Reads one response: headers to the blank line, then its 2-byte body. */
        private static void readResponse(final InputStream in) throws IOException {
            int matched = 0;
            while (matched < 4) {
                final int b = in.read();
                if (b < 0) {
                    throw new IOException("the server closed the connection");
                }
                matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
            }
            for (int i = 0; i < 2; i++) {
                if (in.read() < 0) {
                    throw new IOException("the body ended early");
                }
            }
        }

        void report(final String name) {
            final double handler = handlerNanos.sum() / 1e6 / Math.max(1, handled.sum());
            final double trip = tripNanos.sum() / 1e6 / Math.max(1, trips.sum());
            System.out.printf(java.util.Locale.ROOT, "case=%s requests=%d queued_ms=%.3f handler_ms=%.3f%n",
                name, trips.sum(), Math.max(0, trip - handler), handler);
        }
    }
}
