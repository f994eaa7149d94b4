package io.mech.examples.ipc;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.VariantDescriptor;
import io.mech.examples.VariantUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Two processes, one queue: a single-producer single-consumer ring in a memory-mapped file
 * (see {@link MappedRing}) between this JVM and a peer JVM it starts ({@link IpcPeer}). The peer's
 * JVM options come from the system property {@value #PEER_JVM_ARGS} (separated by spaces), so
 * it can run under mech with options of its own; without it the peer gets a 64 MB heap.
 *
 * <ul>
 *   <li>{@code ping-pong}: the latency baseline, one value at a time to the peer and back through
 *       a second ring, both ends spinning; reports the round trip's percentiles.</li>
 *   <li>{@code stopped-consumer}: a stream at a steady {@value #RATE} values a second which the
 *       peer consumes, until the peer is stopped (SIGSTOP) for the middle third of the run: the
 *       producer's queue fills and waits. Reports when the stop began ({@code stopped_at}, epoch ms),
 *       how long it lasted and the peer's pid.</li>
 *   <li>{@code steady}: the same stream, the peer never stopped: the queue stays near empty.</li>
 * </ul>
 *
 * <p>Threading: the kernel holds no state; each run has its own file and peer, and its calling
 * thread is the producer (with one more thread while a stop is scheduled, see {@link PeerStop}).
 */
public final class IpcKernel implements Kernel {

    /** System property: the peer JVM's options, separated by spaces. */
    public static final String PEER_JVM_ARGS = "io.mech.examples.ipc.peer-jvm-args";
    /** Slots per ring: at {@link #RATE} a stopped consumer's ring is full in 0.4 s. */
    public static final int CAPACITY = 8192;
    /** Values a second the stream offers: far below what either end can do, so depth tells only of stops. */
    public static final int RATE = 20_000;

    private static final long PERIOD_NANOS = 1_000_000_000L / RATE;
    private static final long PEER_START_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long PEER_EXIT_SECONDS = 30;
    /** Spins between two looks at whether the peer still lives (a power of two). */
    private static final long LIVENESS_CHECK = 1 << 16;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("ipc",
            "an SPSC ring in a memory-mapped file between two JVMs",
            List.of(
                    VariantDescriptor.builder("ping-pong", "latency baseline: one value to the peer process and back at a time")
                            .build(),
                    VariantDescriptor.builder("stopped-consumer",
                                    "the consumer process is stopped (SIGSTOP) for a third of the run: the producer's queue fills")
                            .flags(Finding.BACK_PRESSURE, MappedQueue.class)
                            .flags(Finding.QUEUE_DEPTH, MappedQueue.class)
                            .twin("steady").build(),
                    VariantDescriptor.builder("steady", "fix: the consumer process runs throughout; the queue stays near empty")
                            .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final boolean pingPong = variant.name().equals("ping-pong");
        Path path = null;
        Process peer = null;
        try {
            path = SharedFile.create();
            final SharedFile file = SharedFile.map(path, CAPACITY);
            peer = startPeer(path, pingPong ? "echo" : "consume");
            awaitReady(file, peer);
            final Measurement m = pingPong ? pingPong(file, config, peer)
                : stream(file, config, peer, variant.name().equals("stopped-consumer"));
            if (!peer.waitFor(PEER_EXIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the peer process did not end within " + PEER_EXIT_SECONDS + " s of the end marker");
            }
            Check.equal("peer exit status", 0, peer.exitValue());
            Check.equal("peer state", SharedFile.DONE, file.state());
            Check.equal("values the peer took", m.ops(), file.taken());
            Check.equal("values the peer took out of order", 0, file.misordered());
            return m.with("peer_pid", peer.pid());
        } catch (final IOException e) {
            throw new VariantUnavailableException("no shared file or no peer process: " + e.getMessage());
        } finally {
            if (peer != null && peer.isAlive()) {
                peer.destroyForcibly();
            }
            if (path != null) {
                try {
                    Files.deleteIfExists(path);
                } catch (final IOException leftBehind) {
                    // a file in a temporary directory; nothing depends on its going
                }
            }
        }
    }

    private static Process startPeer(final Path path, final String role) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        final String options = System.getProperty(PEER_JVM_ARGS, "-Xmx64m").trim();
        if (!options.isEmpty()) {
            command.addAll(List.of(options.split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), IpcPeer.class.getName(), path.toString(), role,
            Integer.toString(CAPACITY)));
        return new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE)
            .redirectOutput(ProcessBuilder.Redirect.INHERIT).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static void awaitReady(final SharedFile file, final Process peer) throws InterruptedException {
        final long deadline = System.nanoTime() + PEER_START_NANOS;
        while (file.state() != SharedFile.READY) {
            if (!peer.isAlive()) {
                throw new IllegalStateException("the peer process exited with " + peer.exitValue() + " before it was ready");
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("the peer process was not ready within 60 s");
            }
            Thread.sleep(5);
        }
    }

    /** Round trips, one value at a time, both ends spinning. */
    private static Measurement pingPong(final SharedFile file, final RunConfig config, final Process peer)
        throws InterruptedException {
        final MappedRing out = file.toPeer();
        final MappedRing back = file.fromPeer();
        final Histogram roundTrips = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        long misordered = 0;
        long sent = 0;
        final long start = System.nanoTime();
        long now = start;
        while (now - start < config.nanos()) {
            for (long spins = 1; !out.offer(sent); spins++) {
                awaitPeer(spins, peer);
            }
            long echoed;
            for (long spins = 1; (echoed = back.poll()) == MappedRing.EMPTY; spins++) {
                awaitPeer(spins, peer);
            }
            final long arrived = System.nanoTime();
            roundTrips.recordValue(Math.min(roundTrips.getHighestTrackableValue(), arrived - now));
            if (echoed != sent) {
                misordered++;
            }
            sent++;
            now = arrived;
        }
        final long nanos = System.nanoTime() - start;
        endStream(new MappedQueue(out), peer);
        Check.equal("echoes out of order", 0, misordered);
        return Measurement.of(2, sent, nanos)
            .with("rtt_p50_ns", roundTrips.getValueAtPercentile(50))
            .with("rtt_p99_ns", roundTrips.getValueAtPercentile(99))
            .with("rtt_max_ns", roundTrips.getMaxValue());
    }

    /** A steady stream into the producer's queue; the peer stopped for the middle third when asked. */
    private static Measurement stream(final SharedFile file, final RunConfig config, final Process peer, final boolean stop)
        throws InterruptedException {
        final MappedQueue queue = new MappedQueue(file.toPeer());
        final PeerStop peerStop = stop ? PeerStop.schedule(peer.pid(), config.nanos() / 3, config.nanos() / 3) : null;
        long sent = 0;
        int deepest = 0;
        final long start = System.nanoTime();
        try {
            long now;
            while ((now = System.nanoTime()) - start < config.nanos()) {
                final long due = (now - start) / PERIOD_NANOS + 1;
                while (sent < due && queue.offer(sent)) {
                    sent++;
                }
                deepest = Math.max(deepest, queue.size());
                LockSupport.parkNanos(PERIOD_NANOS);
            }
        } finally {
            if (peerStop != null) {
                peerStop.finish();
            }
        }
        final long nanos = System.nanoTime() - start;
        endStream(queue, peer);
        Measurement m = Measurement.of(2, sent, nanos).with("max_depth", deepest);
        if (peerStop != null) {
            m = m.with("stopped_at", peerStop.stoppedAtMillis()).with("stopped_ms", peerStop.stoppedMillis());
        }
        return m;
    }

    /** Spins once more for the peer; fails once it has gone, which it never does before the end marker. */
    private static void awaitPeer(final long spins, final Process peer) {
        Thread.onSpinWait();
        if ((spins & (LIVENESS_CHECK - 1)) == 0 && !peer.isAlive()) {
            throw new IllegalStateException("the peer process exited with " + peer.exitValue() + " mid-run");
        }
    }

    private static void endStream(final MappedQueue queue, final Process peer) throws InterruptedException {
        if (!queue.offer(IpcPeer.END, PEER_EXIT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the peer process (" + (peer.isAlive() ? "alive" : "gone")
                + ") took nothing for " + PEER_EXIT_SECONDS + " s: no room for the end marker");
        }
    }
}
