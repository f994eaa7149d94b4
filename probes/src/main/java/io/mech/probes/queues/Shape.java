package io.mech.probes.queues;

/**
 * How the sampler reads one kind of queue's depth, and where its dequeues are counted. None of
 * these takes the queue's lock or walks more than {@link JdkFields#WALK_BOUND} nodes (a counted
 * application {@code BlockingQueue}'s bound is read through its own methods: see {@link Contract}).
 */
enum Shape {
    /** ArrayBlockingQueue: its {@code count} field; capacity {@code items.length}. */
    ARRAY_BLOCKING(true),
    /** LinkedBlockingQueue: its {@code count} AtomicInteger; its {@code capacity}. */
    LINKED_BLOCKING(true),
    /** LinkedBlockingDeque: its {@code count} field; its {@code capacity}. */
    LINKED_BLOCKING_DEQUE(true),
    /** PriorityBlockingQueue: its {@code size} field; unbounded. */
    PRIORITY_BLOCKING(true),
    /** DelayQueue: its inner PriorityQueue's size(), a plain field read; unbounded. */
    DELAY(true),
    /** ConcurrentLinkedQueue: a walk bounded at {@link JdkFields#WALK_BOUND} nodes; unbounded. */
    CONCURRENT_LINKED(true),
    /** LinkedTransferQueue: a walk over its data nodes bounded like {@link #CONCURRENT_LINKED}. */
    LINKED_TRANSFER(true),
    /** A scheduled executor's DelayedWorkQueue: its {@code size} field; unbounded. */
    DELAYED_WORK(true),
    /** SynchronousQueue: holds nothing, ever. */
    SYNCHRONOUS(false),
    /** An application queue class: offers minus polls, both counted by woven code. */
    COUNTED(true),
    /**
     * A library queue that counts its own progress (JCTools, Agrona, the Disruptor): elements in
     * minus elements out, as its {@link Contract} reads them.
     */
    PROGRESS(false),
    /** A queue class mech cannot read without a lock or a walk: depth unknown. */
    UNKNOWN(false);

    /** Whether woven code counts this shape's dequeues in the bridge. */
    final boolean countsDequeues;

    Shape(final boolean countsDequeues) {
        this.countsDequeues = countsDequeues;
    }

    /** The shape of a queue instance's class, or of its nearest JDK superclass. */
    static Shape of(final Class<?> type, final QueueTypes.Kind application) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            switch (c.getName()) {
                case "java.util.concurrent.ArrayBlockingQueue": return ARRAY_BLOCKING;
                case "java.util.concurrent.LinkedBlockingQueue": return LINKED_BLOCKING;
                case "java.util.concurrent.LinkedBlockingDeque": return LINKED_BLOCKING_DEQUE;
                case "java.util.concurrent.PriorityBlockingQueue": return PRIORITY_BLOCKING;
                case "java.util.concurrent.DelayQueue": return DELAY;
                case "java.util.concurrent.ConcurrentLinkedQueue": return CONCURRENT_LINKED;
                case "java.util.concurrent.LinkedTransferQueue": return LINKED_TRANSFER;
                case "java.util.concurrent.ScheduledThreadPoolExecutor$DelayedWorkQueue": return DELAYED_WORK;
                case "java.util.concurrent.SynchronousQueue": return SYNCHRONOUS;
                default: break;
            }
        }
        if (application == QueueTypes.Kind.PROGRESS) {
            return PROGRESS;
        }
        return application == QueueTypes.Kind.QUEUE ? COUNTED : UNKNOWN;
    }
}
