package host.queues.woven;

import java.util.AbstractQueue;
import java.util.Iterator;

/**
 * The smallest application queue there is: a single-threaded power-of-two ring. Its offer and
 * poll are a few loads and stores, so what the queue probe weaves into them is as large a share
 * of a call as it can be anywhere. {@link host.queues.CallCost} runs it against an unwoven copy
 * of itself.
 */
public final class Ring extends AbstractQueue<Object> {

    private static final int CAPACITY = 16;

    private final Object[] items = new Object[CAPACITY];
    private long head;
    private long tail;

    @Override
    public boolean offer(final Object item) {
        if (tail - head == CAPACITY) {
            return false;
        }
        items[(int) tail & (CAPACITY - 1)] = item;
        tail++;
        return true;
    }

    @Override
    public Object poll() {
        if (head == tail) {
            return null;
        }
        final int at = (int) head & (CAPACITY - 1);
        final Object item = items[at];
        items[at] = null;
        head++;
        return item;
    }

    @Override
    public Object peek() {
        return head == tail ? null : items[(int) head & (CAPACITY - 1)];
    }

    @Override
    public int size() {
        return (int) (tail - head);
    }

    @Override
    public Iterator<Object> iterator() {
        throw new UnsupportedOperationException("not needed by the bench");
    }
}
