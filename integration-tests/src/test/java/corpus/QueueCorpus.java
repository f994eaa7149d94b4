package corpus;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.consumer.RecordingStream;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.agrona.concurrent.Pipe;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpmcUnboundedXaddArrayQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscBlockingConsumerArrayQueue;
import org.jctools.queues.MpscChunkedArrayQueue;
import org.jctools.queues.MpscCompoundQueue;
import org.jctools.queues.MpscGrowableArrayQueue;
import org.jctools.queues.MpscLinkedQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.SpmcArrayQueue;
import org.jctools.queues.SpscArrayQueue;
import org.jctools.queues.SpscChunkedArrayQueue;
import org.jctools.queues.SpscLinkedQueue;
import org.jctools.queues.SpscUnboundedArrayQueue;

/**
 * A host of the queue corpus (io.mech.it.QueueCorpusTest), outside io.mech so that mech takes it
 * for the user's code. Every queue is made in a method of its own, so its site names its case.
 *
 * <p>First, one queue of each JCTools family, Agrona's two array queues and the JDK's bounded and
 * unbounded blocking queues, each given 10 elements and polled 3 times, then left idle; for each
 * it prints {@code case=<method> type=<class> capacity=<n or unbounded>}, the bound as the
 * library's own API states it. Then, at once: pipelines whose consumers keep up (JCTools MPSC,
 * the case, SPSC and MPMC, and a Disruptor whose handler keeps up), and queues whose
 * consumer stalls (Agrona's two queues filled with no consumer, and a Disruptor whose handler
 * takes 2 ms an event). It holds them until mech's {@code mech.QueueBackPressure} JFR event has
 * named each stalled queue's site, and for at least {@link #KEEP_UP} meanwhile, then prints
 * {@code moved=<case> in=<n> out=<n> high=<n>} for each pipeline and {@code alerted=<sites>},
 * and exits. {@code high} is the deepest its producers saw the queue right after their bursts: a
 * consumer designed to keep up still falls behind when the machine takes its core away (seen
 * once at a load average of 16: the MPSC queue full for its last 300 ms), and the queue then
 * really is full. All queues stay referenced until exit, so the final report has them.
 */
public final class QueueCorpus {

    /** The least time the pipelines that keep up run: 30 samples at mech's 50 ms. */
    static final Duration KEEP_UP = Duration.ofMillis(1500);
    /** How long it waits for the stalled queues' alerts at most. */
    static final Duration ALERTS = Duration.ofSeconds(30);
    /** Elements a producer offers in one burst, one burst a millisecond. */
    private static final int BURST = 10;

    private static final List<Object> KEPT = new ArrayList<>();
    private static final List<Thread> THREADS = new ArrayList<>();
    private static final List<Disruptor<?>> DISRUPTORS = new ArrayList<>();
    private static volatile boolean running = true;

    private QueueCorpus() {
    }

    public static void main(final String[] args) throws Exception {
        capacities();
        final Set<String> alerted = ConcurrentHashMap.newKeySet();
        try (RecordingStream alerts = new RecordingStream()) {
            alerts.enable("mech.QueueBackPressure");
            alerts.onEvent("mech.QueueBackPressure", e -> alerted.add(e.getString("site").replaceAll(":.*", "")));
            alerts.startAsync();
            final long start = System.nanoTime();
            final List<Pipeline> pipelines = List.of(keepUpMpsc(), keepUpSpsc(), keepUpMpmc(), keepUpDisruptor());
            final Set<String> stalled = Set.of(stalledOneToOne(), stalledManyToOne(), stalledDisruptor());
            final long deadline = start + ALERTS.toNanos();
            while (System.nanoTime() < deadline
                && (!alerted.containsAll(stalled) || System.nanoTime() - start < KEEP_UP.toNanos())) {
                Thread.sleep(10);
            }
            running = false;
            for (final Thread thread : THREADS) {
                thread.join(5_000);
            }
            // their rings stay referenced for the report; their handlers' threads end, leaving mech's exit alone
            for (final Disruptor<?> disruptor : DISRUPTORS) {
                disruptor.halt();
            }
            for (final Pipeline pipeline : pipelines) {
                System.out.println("moved=" + pipeline.name + " in=" + pipeline.in.get() + " out=" + pipeline.out.get()
                    + " high=" + pipeline.high.get());
            }
            System.out.println("alerted=" + String.join(",", new TreeSet<>(alerted)));
        }
    }

    private static void capacities() {
        report("spscArray", spscArray());
        report("mpscArray", mpscArray());
        report("spmcArray", spmcArray());
        report("mpmcArray", mpmcArray());
        report("mpscChunked", mpscChunked());
        report("spscChunked", spscChunked());
        report("mpscGrowable", mpscGrowable());
        report("mpscUnbounded", mpscUnbounded());
        report("spscUnbounded", spscUnbounded());
        report("mpmcUnboundedXadd", mpmcUnboundedXadd());
        report("mpscLinked", mpscLinked());
        report("spscLinked", spscLinked());
        report("mpscCompound", mpscCompound());
        report("mpscBlockingConsumer", mpscBlockingConsumer());
        report("oneToOne", oneToOne());
        report("manyToOne", manyToOne());
        report("arrayBlocking", arrayBlocking());
        report("linkedBlocking", linkedBlocking());
        report("linkedUnbounded", linkedUnbounded());
    }

    private static Queue<Integer> spscArray() {
        return new SpscArrayQueue<>(1000);
    }

    private static Queue<Integer> mpscArray() {
        return new MpscArrayQueue<>(4096);
    }

    private static Queue<Integer> spmcArray() {
        return new SpmcArrayQueue<>(512);
    }

    private static Queue<Integer> mpmcArray() {
        return new MpmcArrayQueue<>(256);
    }

    private static Queue<Integer> mpscChunked() {
        return new MpscChunkedArrayQueue<>(64, 8192);
    }

    private static Queue<Integer> spscChunked() {
        return new SpscChunkedArrayQueue<>(64, 4096);
    }

    private static Queue<Integer> mpscGrowable() {
        return new MpscGrowableArrayQueue<>(64, 2048);
    }

    private static Queue<Integer> mpscUnbounded() {
        return new MpscUnboundedArrayQueue<>(128);
    }

    private static Queue<Integer> spscUnbounded() {
        return new SpscUnboundedArrayQueue<>(128);
    }

    private static Queue<Integer> mpmcUnboundedXadd() {
        return new MpmcUnboundedXaddArrayQueue<>(128);
    }

    private static Queue<Integer> mpscLinked() {
        return new MpscLinkedQueue<>();
    }

    private static Queue<Integer> spscLinked() {
        return new SpscLinkedQueue<>();
    }

    private static Queue<Integer> mpscCompound() {
        return new MpscCompoundQueue<>(1024);
    }

    private static Queue<Integer> mpscBlockingConsumer() {
        return new MpscBlockingConsumerArrayQueue<>(1024);
    }

    private static Queue<Integer> oneToOne() {
        return new OneToOneConcurrentArrayQueue<>(1000);
    }

    private static Queue<Integer> manyToOne() {
        return new ManyToOneConcurrentArrayQueue<>(512);
    }

    private static Queue<Integer> arrayBlocking() {
        return new ArrayBlockingQueue<>(100);
    }

    private static Queue<Integer> linkedBlocking() {
        return new LinkedBlockingQueue<>(50);
    }

    private static Queue<Integer> linkedUnbounded() {
        return new LinkedBlockingQueue<>();
    }

    private static void report(final String name, final Queue<Integer> queue) {
        KEPT.add(queue);
        for (int i = 0; i < 10; i++) {
            queue.offer(i);
        }
        for (int i = 0; i < 3; i++) {
            queue.poll();
        }
        System.out.println("case=" + name + " type=" + queue.getClass().getName() + " capacity=" + bound(queue));
    }

    /** The bound as the queue's own API states it. */
    private static String bound(final Queue<?> queue) {
        final long bound;
        if (queue instanceof MessagePassingQueue<?> jctools) {
            bound = jctools.capacity() == MessagePassingQueue.UNBOUNDED_CAPACITY ? -1 : jctools.capacity();
        } else if (queue instanceof Pipe<?> agrona) {
            bound = agrona.capacity();
        } else {
            final BlockingQueue<?> blocking = (BlockingQueue<?>) queue;
            final long sum = (long) blocking.remainingCapacity() + blocking.size();
            bound = sum >= Integer.MAX_VALUE ? -1 : sum;
        }
        return bound < 0 ? "unbounded" : Long.toString(bound);
    }

    /** Counts of one pipeline: what its producers offered and its consumers took, and the deepest its producers saw. */
    private static final class Pipeline {
        final String name;
        final AtomicLong in = new AtomicLong();
        final AtomicLong out = new AtomicLong();
        final AtomicLong high = new AtomicLong();

        Pipeline(final String name) {
            this.name = name;
        }

        void saw(final long depth) {
            high.accumulateAndGet(depth, Math::max);
        }
    }

    private static Pipeline keepUpMpsc() {
        return keepUp("keepUpMpsc", new MpscArrayQueue<>(4096), 2, 1);
    }

    private static Pipeline keepUpSpsc() {
        return keepUp("keepUpSpsc", new SpscArrayQueue<>(4096), 1, 1);
    }

    private static Pipeline keepUpMpmc() {
        return keepUp("keepUpMpmc", new MpmcArrayQueue<>(4096), 2, 2);
    }

    /**
     * Producers offer a burst every millisecond (about 10,000 a second each); consumers poll all
     * there is, then park 100 us: a consumer that keeps up, as an idle strategy would run it.
     */
    private static Pipeline keepUp(final String name, final Queue<Integer> queue, final int producers, final int consumers) {
        KEPT.add(queue);
        final Pipeline pipeline = new Pipeline(name);
        for (int p = 0; p < producers; p++) {
            start(name + "-producer", () -> {
                while (running) {
                    for (int i = 0; i < BURST; i++) {
                        if (queue.offer(i)) {
                            pipeline.in.incrementAndGet();
                        }
                    }
                    pipeline.saw(queue.size());
                    LockSupport.parkNanos(1_000_000);
                }
            });
        }
        for (int c = 0; c < consumers; c++) {
            start(name + "-consumer", () -> {
                while (running) {
                    if (queue.poll() != null) {
                        pipeline.out.incrementAndGet();
                    } else {
                        LockSupport.parkNanos(100_000);
                    }
                }
            });
        }
        return pipeline;
    }

    /** A Disruptor whose handler only counts, its producer publishing a burst every millisecond. */
    private static Pipeline keepUpDisruptor() {
        final Pipeline pipeline = new Pipeline("keepUpDisruptor");
        final Disruptor<long[]> disruptor = new Disruptor<>(() -> new long[1], 4096, DaemonThreadFactory.INSTANCE,
            ProducerType.SINGLE, new BlockingWaitStrategy());
        disruptor.handleEventsWith((EventHandler<long[]>) (event, sequence, endOfBatch) -> pipeline.out.incrementAndGet());
        final RingBuffer<long[]> ring = disruptor.start();
        KEPT.add(disruptor.getRingBuffer());
        DISRUPTORS.add(disruptor);
        start("keepUpDisruptor-producer", () -> {
            while (running) {
                for (int i = 0; i < BURST; i++) {
                    ring.publishEvent((event, sequence) -> event[0] = sequence);
                    pipeline.in.incrementAndGet();
                }
                pipeline.saw(ring.getBufferSize() - ring.remainingCapacity());
                LockSupport.parkNanos(1_000_000);
            }
        });
        return pipeline;
    }

    /** @return the site's method: an Agrona one-to-one queue filled, its consumer stalled */
    private static String stalledOneToOne() {
        fill(new OneToOneConcurrentArrayQueue<>(256));
        return "corpus.QueueCorpus.stalledOneToOne";
    }

    /** @return the site's method: an Agrona many-to-one queue filled, its consumer stalled */
    private static String stalledManyToOne() {
        fill(new ManyToOneConcurrentArrayQueue<>(128));
        return "corpus.QueueCorpus.stalledManyToOne";
    }

    private static void fill(final Queue<Integer> queue) {
        KEPT.add(queue);
        int offered = 0;
        while (queue.offer(offered)) {
            offered++;
        }
    }

    /**
     * @return the site's method: a Disruptor whose handler takes 2 ms an event and whose producer
     *         publishes as fast as the ring lets it
     */
    private static String stalledDisruptor() {
        final Disruptor<long[]> disruptor = new Disruptor<>(() -> new long[1], 64, DaemonThreadFactory.INSTANCE,
            ProducerType.SINGLE, new BlockingWaitStrategy());
        disruptor.handleEventsWith((EventHandler<long[]>) (event, sequence, endOfBatch) -> {
            if (running) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        });
        final RingBuffer<long[]> ring = disruptor.start();
        KEPT.add(disruptor.getRingBuffer());
        DISRUPTORS.add(disruptor);
        start("stalledDisruptor-producer", () -> {
            while (running) {
                ring.publishEvent((event, sequence) -> event[0] = sequence);
            }
        });
        return "corpus.QueueCorpus.stalledDisruptor";
    }

    private static void start(final String name, final Runnable body) {
        final Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        THREADS.add(thread);
        thread.start();
    }
}
