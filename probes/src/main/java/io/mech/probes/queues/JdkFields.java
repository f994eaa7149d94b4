package io.mech.probes.queues;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.PriorityQueue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Getters for the JDK queues' private count fields and list links, through
 * {@link MethodHandles#privateLookupIn} once {@code java.util.concurrent} is open to mech. Each
 * handle is adapted to {@code (Object)int}, {@code (Object)Object} or {@code (Object)boolean} and
 * called with invokeExact, so a read allocates nothing. A read is a plain or volatile field load:
 * never the queue's lock.
 */
final class JdkFields {

    /** The most nodes a walk of a linked queue visits; a deeper queue reads as "at least" this. */
    static final int WALK_BOUND = 10_000;

    private final MethodHandle abqCount;
    private final MethodHandle abqItems;
    private final MethodHandle lbqCount;
    private final MethodHandle lbqCapacity;
    private final MethodHandle lbdCount;
    private final MethodHandle lbdCapacity;
    private final MethodHandle pbqSize;
    private final MethodHandle delayQueue;
    private final MethodHandle dwqSize;
    private final Walk clq;
    private final Walk ltq;

    /** @throws ReflectiveOperationException when a field is missing: a JDK whose queues mech does not know */
    JdkFields() throws ReflectiveOperationException {
        abqCount = getter(ArrayBlockingQueue.class, "count", int.class);
        abqItems = getter(ArrayBlockingQueue.class, "items", Object.class);
        lbqCount = getter(LinkedBlockingQueue.class, "count", Object.class);
        lbqCapacity = getter(LinkedBlockingQueue.class, "capacity", int.class);
        lbdCount = getter(LinkedBlockingDeque.class, "count", int.class);
        lbdCapacity = getter(LinkedBlockingDeque.class, "capacity", int.class);
        pbqSize = getter(PriorityBlockingQueue.class, "size", int.class);
        delayQueue = getter(DelayQueue.class, "q", Object.class);
        dwqSize = getter(Class.forName("java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue", false,
            ScheduledThreadPoolExecutor.class.getClassLoader()), "size", int.class);
        clq = new Walk(ConcurrentLinkedQueue.class, false);
        ltq = new Walk(LinkedTransferQueue.class, true);
    }

    private static MethodHandle getter(final Class<?> owner, final String name, final Class<?> as)
        throws ReflectiveOperationException {
        final Field field = owner.getDeclaredField(name);
        final MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(owner, MethodHandles.lookup());
        return lookup.unreflectGetter(field).asType(MethodType.methodType(as, Object.class));
    }

    /**
     * What a queue's sampler keeps from registration: the AtomicInteger or PriorityQueue behind
     * the count, read once (they are final fields), so a sample reads no further.
     */
    Object holder(final Shape shape, final Object queue) throws Throwable {
        switch (shape) {
            case LINKED_BLOCKING: return (Object) lbqCount.invokeExact(queue);
            case DELAY: return (Object) delayQueue.invokeExact(queue);
            default: return null;
        }
    }

    /**
     * The bound of one of the JDK's queues: the final field its {@code remainingCapacity()} is
     * computed from (read without the lock that {@code ArrayBlockingQueue.remainingCapacity()} and
     * {@code LinkedBlockingDeque}'s take), {@code Integer.MAX_VALUE} meaning none as there; none
     * for the queues the JDK documents as unbounded.
     *
     * @return the bound, {@link QueueStats#UNBOUNDED}, or {@link QueueStats#UNKNOWN} when not a JDK shape
     */
    long capacity(final Shape shape, final Object queue) throws Throwable {
        final int bound;
        switch (shape) {
            case ARRAY_BLOCKING:
                bound = ((Object[]) (Object) abqItems.invokeExact(queue)).length;
                break;
            case LINKED_BLOCKING:
                bound = (int) lbqCapacity.invokeExact(queue);
                break;
            case LINKED_BLOCKING_DEQUE:
                bound = (int) lbdCapacity.invokeExact(queue);
                break;
            case SYNCHRONOUS: return 0;
            case PRIORITY_BLOCKING: case DELAY: case CONCURRENT_LINKED: case LINKED_TRANSFER: case DELAYED_WORK:
                return QueueStats.UNBOUNDED;
            default: return QueueStats.UNKNOWN;
        }
        return bound == Integer.MAX_VALUE ? QueueStats.UNBOUNDED : bound;
    }

    /**
     * @param holder what {@link #holder} returned
     * @return the depth; {@link #WALK_BOUND} or more means at least that many; -1 when not a JDK shape
     */
    int depth(final Shape shape, final Object queue, final Object holder) throws Throwable {
        switch (shape) {
            case ARRAY_BLOCKING: return (int) abqCount.invokeExact(queue);
            case LINKED_BLOCKING: return ((AtomicInteger) holder).get();
            case LINKED_BLOCKING_DEQUE: return (int) lbdCount.invokeExact(queue);
            case PRIORITY_BLOCKING: return (int) pbqSize.invokeExact(queue);
            case DELAY: return ((PriorityQueue<?>) holder).size();
            case DELAYED_WORK: return (int) dwqSize.invokeExact(queue);
            case CONCURRENT_LINKED: return clq.count(queue);
            case LINKED_TRANSFER: return ltq.count(queue);
            case SYNCHRONOUS: return 0;
            default: return -1;
        }
    }

    /**
     * A bounded walk over a linked queue's nodes from its head, counting nodes that hold an item
     * (for a dual queue, data nodes not yet matched). A node linked to itself was unlinked under
     * the walk: it stops there, undercounting for one sample rather than starting over.
     */
    private static final class Walk {
        private final MethodHandle head;
        private final MethodHandle next;
        private final MethodHandle item;
        private final MethodHandle isData;

        Walk(final Class<?> queue, final boolean dual) throws ReflectiveOperationException {
            final Class<?> node = queue.getDeclaredField("head").getType();
            head = getter(queue, "head", Object.class);
            next = getter(node, "next", Object.class);
            item = getter(node, "item", Object.class);
            isData = dual ? getter(node, "isData", boolean.class) : null;
        }

        int count(final Object queue) throws Throwable {
            Object node = (Object) head.invokeExact(queue);
            int count = 0;
            for (int hops = 0; node != null && hops < 2 * WALK_BOUND && count < WALK_BOUND; hops++) {
                if ((Object) item.invokeExact(node) != null && (isData == null || (boolean) isData.invokeExact(node))) {
                    count++;
                }
                final Object after = (Object) next.invokeExact(node);
                if (after == node) {
                    break;
                }
                node = after;
            }
            return count;
        }
    }
}
