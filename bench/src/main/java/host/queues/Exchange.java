package host.queues;

import java.util.Queue;

/**
 * The loop {@link CallCost} times. Each queue under test runs in a copy of this class of its own
 * (see {@link Copies}), so every copy's offer and poll call sites see one queue class only, as
 * they would in an application.
 */
public final class Exchange {

    private Exchange() {
    }

    /**
     * Two offers, then two polls, {@code rounds} times: the queue never holds more than two.
     *
     * @param queue  the queue
     * @param rounds how many times
     * @param item   what to offer
     * @return the items polled
     */
    public static long run(final Queue<Object> queue, final long rounds, final Object item) {
        long polled = 0;
        for (long i = 0; i < rounds; i++) {
            queue.offer(item);
            queue.offer(item);
            polled += queue.poll() == null ? 0 : 1;
            polled += queue.poll() == null ? 0 : 1;
        }
        return polled;
    }
}
