package host.queues;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;

/**
 * What the queue probe adds to one counted offer or poll, measured inside one JVM so that no
 * JVM-to-JVM noise enters it: each queue class against a copy of itself renamed into
 * {@code host.queues.plain}, which the probe leaves alone ({@link Copies}), in alternating rounds.
 * The queues: an application's array ring ({@link host.queues.woven.Ring}: its counters found
 * through the probe's slot field), and the JDK's ArrayBlockingQueue, LinkedBlockingQueue and
 * ConcurrentLinkedQueue (dequeues counted, found by identity hash). Started with the probe
 * including {@code host.queues.woven}; with the probe off it is the control: what remains there is
 * the copy's own difference from the original (a JDK class and its copy are not compiled quite
 * alike), to be taken off the figure with the probe on.
 *
 * <p>This package lies outside {@code io.mech}, so the probe takes its frames for the
 * application's and registers (and counts) the queues it creates.
 */
public final class CallCost {

    /** The queue classes, each with its copy's name: as long as the original's. */
    private static final List<String[]> QUEUES = List.of(
        new String[] {"host.queues.woven.Ring", "host.queues.plain.Ring"},
        new String[] {"java.util.concurrent.ArrayBlockingQueue", "host.queues.plain.jc.ArrayBlockingQueue"},
        new String[] {"java.util.concurrent.LinkedBlockingQueue", "host.queues.plain.jc.LinkedBlockingQueue"},
        new String[] {"java.util.concurrent.ConcurrentLinkedQueue", "host.queues.plain.jc.ConcurrentLinkedQueue"});
    private static final int CAPACITY = 16;
    private static final int WARM_UP = 8;
    private static final int ROUNDS = 21;
    private static final long ROUND_NANOS = 40_000_000;
    /** An exchange moves two items: two offers and two polls. */
    private static final int ITEMS_PER_EXCHANGE = 2;

    private CallCost() {
    }

    /**
     * Prints, for each queue class, the nanoseconds an item (an offer and a poll) takes through
     * the copy, {@code <SimpleName>.plain_ns_per_item}, and the median over the rounds of each
     * round's difference between the original and the copy, {@code <SimpleName>.added_ns_per_item}.
     *
     * @param args ignored
     */
    public static void main(final String[] args) throws Throwable {
        for (final String[] names : QUEUES) {
            final Arm woven = new Arm(new Copies(null, null), names[0]);
            final Arm plain = new Arm(new Copies(names[0], names[1]), names[1]);
            long exchanges = 10_000;
            final double[] plainNanos = new double[ROUNDS];
            final double[] added = new double[ROUNDS];
            for (int round = -WARM_UP; round < ROUNDS; round++) {
                // each arm goes first in every other round: whichever runs first has run faster here
                final boolean wovenFirst = (round & 1) == 0;
                final double first = (wovenFirst ? woven : plain).time(exchanges) / (double) (exchanges * ITEMS_PER_EXCHANGE);
                final double second = (wovenFirst ? plain : woven).time(exchanges) / (double) (exchanges * ITEMS_PER_EXCHANGE);
                final double w = wovenFirst ? first : second;
                final double p = wovenFirst ? second : first;
                if (round >= 0) {
                    plainNanos[round] = p;
                    added[round] = w - p;
                } else {
                    // sized from the warm-up's compiled rounds, not the interpreter's first one
                    exchanges = Math.max(1, (long) (ROUND_NANOS / (w * ITEMS_PER_EXCHANGE)));
                }
            }
            final String name = names[0].substring(names[0].lastIndexOf('.') + 1);
            System.out.printf("%s.plain_ns_per_item=%.4f %s.added_ns_per_item=%.4f%n", name, median(plainNanos), name, median(added));
        }
    }

    private static double median(final double[] samples) {
        final double[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** One queue and its own copy of the exchange loop. */
    private static final class Arm {
        private static final MethodType RUN = MethodType.methodType(long.class, Queue.class, long.class, Object.class);

        private final Object queue;
        private final MethodHandle run;
        private final Object item = new Object();

        Arm(final Copies loader, final String queueClass) throws ReflectiveOperationException {
            queue = boundedIfItCanBe(Class.forName(queueClass, true, loader));
            run = MethodHandles.publicLookup().findStatic(Class.forName(Exchange.class.getName(), true, loader), "run", RUN);
        }

        private static Object boundedIfItCanBe(final Class<?> type) throws ReflectiveOperationException {
            try {
                return type.getConstructor(int.class).newInstance(CAPACITY);
            } catch (final NoSuchMethodException unbounded) {
                return type.getConstructor().newInstance();
            }
        }

        /** @return nanoseconds the exchanges took */
        long time(final long exchanges) throws Throwable {
            final long start = System.nanoTime();
            final long polled = (long) run.invoke(queue, exchanges, item);
            final long took = System.nanoTime() - start;
            if (polled != 2 * exchanges) {
                throw new IllegalStateException(queue.getClass().getName() + " lost items: " + polled + " of " + 2 * exchanges);
            }
            return took;
        }
    }
}
