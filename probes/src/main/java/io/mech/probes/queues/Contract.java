package io.mech.probes.queues;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collection;

/**
 * What a queue's own API promises about its bound and its progress, found by the name of the
 * type that declares it (the libraries are not on mech's class path; a copy relocated into another
 * library's package is found too) and called through method
 * handles adapted to {@code (Object)int} or {@code (Object)long}, so a read allocates nothing:
 * <ul>
 *   <li>JCTools: {@code MessagePassingQueue.capacity()}, its {@code UNBOUNDED_CAPACITY} (-1) for
 *       none; {@code QueueProgressIndicators}' producer and consumer indices;</li>
 *   <li>Agrona: {@code Pipe.capacity()}, {@code addedCount()} and {@code removedCount()};</li>
 *   <li>the LMAX Disruptor: {@code Sequenced.getBufferSize()}; the ring buffer's cursor and its
 *       slowest gating sequence ({@code RingBuffer.getMinimumGatingSequence()}), each a sequence
 *       that starts at -1;</li>
 *   <li>any {@code java.util.concurrent.BlockingQueue}: {@code remainingCapacity()} plus
 *       {@code size()}, a sum of {@code Integer.MAX_VALUE} meaning no bound.</li>
 * </ul>
 * Found and called on the sampler thread only, never in the host's constructor: a queue's
 * fields are set by then (its superclasses' constructors register it before its own has run).
 * Nothing is guessed from a field's name: a queue that promises none of these has an unknown
 * bound. Immutable: one per tracked queue, found on its first sample.
 */
final class Contract {

    /** A queue that promises nothing mech reads. */
    static final Contract NONE = new Contract(null, null, null, null, null, 0);

    private static final String MESSAGE_PASSING = "org.jctools.queues.MessagePassingQueue";
    private static final String PROGRESS = QueueTypes.PROGRESS_INDICATORS.replace('/', '.');
    private static final String PIPE = QueueTypes.AGRONA_PIPE.replace('/', '.');
    private static final String SEQUENCED = "com.lmax.disruptor.Sequenced";
    private static final String RING_BUFFER = QueueTypes.DISRUPTOR_RING_BUFFER.replace('/', '.');
    private static final String BLOCKING = "java.util.concurrent.BlockingQueue";
    /** A blocking queue's bound read as remaining plus size: tries for a size that stood still. */
    private static final int SETTLE_TRIES = 3;

    private static final MethodType AS_INT = MethodType.methodType(int.class, Object.class);
    private static final MethodType AS_LONG = MethodType.methodType(long.class, Object.class);

    /** {@code ()int}: the bound, or -1 / {@code Integer.MAX_VALUE} for none; null when not promised. */
    private final MethodHandle capacity;
    /** BlockingQueue's {@code remainingCapacity()} and {@code size()}; null unless a BlockingQueue. */
    private final MethodHandle remaining;
    private final MethodHandle size;
    /** Elements (or sequences) in and out; null unless the queue counts its own progress. */
    private final MethodHandle produced;
    private final MethodHandle consumed;
    /** What a count is above the index read: 1 for the Disruptor's sequences, which start at -1. */
    private final long base;

    private Contract(final MethodHandle capacity, final MethodHandle remaining, final MethodHandle size,
                     final MethodHandle produced, final MethodHandle consumed, final long base) {
        this.capacity = capacity;
        this.remaining = remaining;
        this.size = size;
        this.produced = produced;
        this.consumed = consumed;
        this.base = base;
    }

    /** @return what a queue's class promises; {@link #NONE} when nothing, or when a lookup failed */
    static Contract of(final Class<?> type) {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            final Class<?> progress = find(type, PROGRESS);
            final Class<?> pipe = find(type, PIPE);
            final Class<?> ring = find(type, RING_BUFFER);
            MethodHandle produced = null;
            MethodHandle consumed = null;
            long base = 0;
            if (progress != null) {
                produced = getter(lookup, progress, "currentProducerIndex", long.class);
                consumed = getter(lookup, progress, "currentConsumerIndex", long.class);
            } else if (pipe != null) {
                produced = getter(lookup, pipe, "addedCount", long.class);
                consumed = getter(lookup, pipe, "removedCount", long.class);
            } else if (ring != null) {
                produced = getter(lookup, ring, "getCursor", long.class);
                consumed = getter(lookup, ring, "getMinimumGatingSequence", long.class);
                base = 1;
            }
            final Class<?> messagePassing = find(type, MESSAGE_PASSING);
            final Class<?> sequenced = find(type, SEQUENCED);
            final Class<?> blocking = find(type, BLOCKING);
            MethodHandle capacity = null;
            MethodHandle remaining = null;
            MethodHandle size = null;
            if (messagePassing != null) {
                capacity = getter(lookup, messagePassing, "capacity", int.class);
            } else if (pipe != null) {
                capacity = getter(lookup, pipe, "capacity", int.class);
            } else if (sequenced != null) {
                capacity = getter(lookup, sequenced, "getBufferSize", int.class);
            } else if (blocking != null) {
                remaining = getter(lookup, blocking, "remainingCapacity", int.class);
                size = getter(lookup, Collection.class, "size", int.class);
            }
            if (capacity == null && remaining == null && produced == null) {
                return NONE;
            }
            return new Contract(capacity, remaining, size, produced, consumed, base);
        } catch (final ReflectiveOperationException | RuntimeException e) {
            return NONE;
        }
    }

    private static MethodHandle getter(final MethodHandles.Lookup lookup, final Class<?> owner, final String name,
                                       final Class<?> returns) throws ReflectiveOperationException {
        return lookup.findVirtual(owner, name, MethodType.methodType(returns))
            .asType(returns == int.class ? AS_INT : AS_LONG);
    }

    /**
     * @return the class or interface of that name (or a relocated copy of it: see
     *         {@link QueueTypes#isLibraryType}) among a type's supertypes, itself included; null if none
     */
    private static Class<?> find(final Class<?> type, final String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (QueueTypes.isLibraryType(c.getName(), name)) {
                return c;
            }
            for (final Class<?> i : c.getInterfaces()) {
                final Class<?> found = find(i, name);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** @return whether the queue counts its own progress: {@link #produced} and {@link #consumed} answer */
    boolean counts() {
        return produced != null;
    }

    /** @return whether the contract gives a bound (or says there is none) */
    boolean knowsCapacity() {
        return capacity != null || remaining != null;
    }

    /**
     * @return the bound; {@link QueueStats#UNBOUNDED} when the contract says there is none;
     *         {@link QueueStats#UNKNOWN} when it does not say, or a blocking queue's size moved
     *         under every try
     */
    long capacity(final Object queue) throws Throwable {
        if (capacity != null) {
            final int bound = (int) capacity.invokeExact(queue);
            return bound < 0 || bound == Integer.MAX_VALUE ? QueueStats.UNBOUNDED : bound;
        }
        if (remaining == null) {
            return QueueStats.UNKNOWN;
        }
        for (int i = 0; i < SETTLE_TRIES; i++) {
            final int before = (int) size.invokeExact(queue);
            final int room = (int) remaining.invokeExact(queue);
            if ((int) size.invokeExact(queue) == before) {
                // a queue with no intrinsic limit answers Integer.MAX_VALUE, less what it holds where it counts them
                return (long) before + room >= Integer.MAX_VALUE ? QueueStats.UNBOUNDED : (long) before + room;
            }
        }
        return QueueStats.UNKNOWN;
    }

    /** @return elements in since the queue was made; read before {@link #consumed}, so depth never exceeds the bound */
    long produced(final Object queue) throws Throwable {
        return (long) produced.invokeExact(queue) + base;
    }

    /** @return elements out since the queue was made */
    long consumed(final Object queue) throws Throwable {
        return (long) consumed.invokeExact(queue) + base;
    }
}
