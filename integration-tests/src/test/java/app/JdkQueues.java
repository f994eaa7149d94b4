package app;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * A host application outside mech's packages (so the queue probe takes it for the user's code):
 * creates one of each JDK queue the probe counts, moves a different number of elements through
 * each, then prints, per queue class, how many it dequeued and whether the class carries mech's
 * slot field. The queues stay referenced until exit, so the final report still has them.
 */
public final class JdkQueues {

    private static final List<Queue<?>> KEPT = new ArrayList<>();

    private JdkQueues() {
    }

    /** A delayed element already due, so a DelayQueue hands it out at once. */
    private record Due(int n) implements Delayed {
        @Override
        public long getDelay(final TimeUnit unit) {
            return 0;
        }

        @Override
        public int compareTo(final Delayed other) {
            return Integer.compare(n, ((Due) other).n);
        }
    }

    /**
     * Runs the queues.
     *
     * @param args none
     */
    public static void main(final String[] args) {
        final List<Queue<Object>> queues = List.of(new ArrayBlockingQueue<>(4096), new LinkedBlockingQueue<>(),
            new LinkedBlockingDeque<>(), new PriorityBlockingQueue<>(), new ConcurrentLinkedQueue<>(), new LinkedTransferQueue<>());
        int items = 1000;
        for (final Queue<Object> queue : queues) {
            run(queue, items, Integer::valueOf);
            items += 111;
        }
        run(new DelayQueue<Due>(), items, Due::new);
        System.out.println("host done");
    }

    private static <E> void run(final Queue<E> queue, final int items, final IntFunction<E> element) {
        KEPT.add(queue);
        for (int i = 0; i < items; i++) {
            queue.offer(element.apply(i));
        }
        int polled = 0;
        while (queue.poll() != null) {
            polled++;
        }
        boolean field;
        try {
            queue.getClass().getDeclaredField("mech$slot");
            field = true;
        } catch (final NoSuchFieldException e) {
            field = false;
        }
        System.out.println(queue.getClass().getName() + " polled=" + polled + " slot_field=" + field);
    }
}
