package corpus.libraries;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.lmax.disruptor.EventTranslatorOneArg;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.YieldingWaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import com.lmax.disruptor.util.DaemonThreadFactory;
import corpus.Workers;
import corpus.control.ControlPair;
import corpus.jdk.JdkDrivers;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ThreadLocalRandom;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscChunkedArrayQueue;
import org.jctools.queues.SpscArrayQueue;

/**
 * Third-party libraries whose authors padded or striped what their threads share, each used as
 * its authors intend, all at once until the false-sharing window is over: the Disruptor (a ring
 * buffer, one producer and one handler), Agrona's one-to-one and many-to-one queues, JCTools'
 * SPSC, MPSC, MPMC and chunked MPSC queues (one producer offering to every queue, a second to
 * the many-producer ones, one consumer polling them all: few threads, so that each runs in every
 * counting burst), a Caffeine cache read and written by two threads, the JDK's drivers, and the
 * positive control. This class is in no included package: the libraries' own code is what the
 * window judges.
 */
public final class LibrariesHost {

    private static final Integer ITEM = 42;

    private LibrariesHost() {
    }

    /** One Disruptor event: a value the producer writes and the handler reads. */
    static final class Event {
        long value;
    }

    /**
     * Runs every driver until the window is over.
     *
     * @param args none
     */
    public static void main(final String[] args) throws InterruptedException {
        final Workers workers = new Workers();
        ControlPair.start(workers);
        JdkDrivers.start(workers);
        final Disruptor<Event> disruptor = new Disruptor<>(Event::new, 1024, DaemonThreadFactory.INSTANCE, ProducerType.SINGLE,
            new YieldingWaitStrategy());
        final long[] handled = new long[1];
        disruptor.handleEventsWith((event, sequence, endOfBatch) -> handled[0] += event.value);
        final RingBuffer<Event> ring = disruptor.start();
        final EventTranslatorOneArg<Event, Long> translator = (event, sequence, value) -> event.value = value;
        final Long one = 1L;
        workers.start("disruptor-producer", () -> {
            while (Workers.running()) {
                ring.publishEvent(translator, one);
            }
        });
        final List<Queue<Integer>> singleProducer = List.of(new OneToOneConcurrentArrayQueue<>(1024), new SpscArrayQueue<>(1024));
        final List<Queue<Integer>> manyProducers = List.of(new ManyToOneConcurrentArrayQueue<>(1024), new MpscArrayQueue<>(1024),
            new MpmcArrayQueue<>(1024), new MpscChunkedArrayQueue<>(64, 1024));
        final List<Queue<Integer>> all = new ArrayList<>(singleProducer);
        all.addAll(manyProducers);
        workers.start("queue-producer-0", () -> offerToAll(all));
        workers.start("queue-producer-1", () -> offerToAll(manyProducers));
        workers.start("queue-consumer", () -> {
            while (Workers.running()) {
                boolean any = false;
                for (final Queue<Integer> queue : all) {
                    any |= queue.poll() != null;
                }
                if (!any) {
                    Thread.yield();
                }
            }
        });
        final Cache<Integer, Integer> cache = Caffeine.newBuilder().maximumSize(512).build();
        for (int t = 0; t < 2; t++) {
            workers.start("caffeine-" + t, () -> {
                while (Workers.running()) {
                    final int key = ThreadLocalRandom.current().nextInt(1024);
                    if (cache.getIfPresent(key) == null) {
                        cache.put(key, key);
                    }
                }
            });
        }
        final int exit = workers.awaitWindowThenStop();
        disruptor.halt();
        System.exit(exit);
    }

    /** Offers one item to each queue in turn, yielding when all are full. */
    private static void offerToAll(final List<Queue<Integer>> queues) {
        while (Workers.running()) {
            boolean any = false;
            for (final Queue<Integer> queue : queues) {
                any |= queue.offer(ITEM);
            }
            if (!any) {
                Thread.yield();
            }
        }
    }
}
