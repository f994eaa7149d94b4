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
import java.util.Queue;
import java.util.concurrent.ThreadLocalRandom;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.SpscArrayQueue;

/**
 * Third-party libraries whose authors padded or striped what their threads share, each used as
 * its authors intend, all at once until the false-sharing window is over: the Disruptor (a ring
 * buffer, one producer and one handler), Agrona's one-to-one and many-to-one queues, JCTools'
 * SPSC, MPSC, MPMC and unbounded MPSC queues, a Caffeine cache read and written by two threads,
 * the JDK's drivers, and the positive control. This class is in no included package: the
 * libraries' own code is what the window judges.
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
        pipe(workers, "agrona-one-to-one", new OneToOneConcurrentArrayQueue<>(1024), 1);
        pipe(workers, "agrona-many-to-one", new ManyToOneConcurrentArrayQueue<>(1024), 2);
        pipe(workers, "jctools-spsc", new SpscArrayQueue<>(1024), 1);
        pipe(workers, "jctools-mpsc", new MpscArrayQueue<>(1024), 2);
        pipe(workers, "jctools-mpmc", new MpmcArrayQueue<>(1024), 2);
        pipe(workers, "jctools-mpsc-unbounded", new MpscUnboundedArrayQueue<>(128), 2);
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

    /**
     * Producers offering one item and a consumer taking it, yielding when the queue is full or
     * empty; an unbounded queue's producers stay at most its capacity ahead.
     */
    private static void pipe(final Workers workers, final String name, final Queue<Integer> queue, final int producers) {
        for (int p = 0; p < producers; p++) {
            workers.start(name + "-producer-" + p, () -> {
                while (Workers.running()) {
                    if (queue.size() >= 1024 || !queue.offer(ITEM)) {
                        Thread.yield();
                    }
                }
            });
        }
        workers.start(name + "-consumer", () -> {
            while (Workers.running()) {
                if (queue.poll() == null) {
                    Thread.yield();
                }
            }
        });
    }
}
