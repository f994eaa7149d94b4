package io.mech.probes.queues;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * A JCTools queue's progress indicators ({@code currentProducerIndex}, {@code currentConsumerIndex}
 * of {@code org.jctools.queues.QueueProgressIndicators}): volatile index reads, so depth and both
 * rates come without a lock, a walk or woven counting. Its {@code capacity()} (from
 * {@code MessagePassingQueue}) gives the bound, -1 for none.
 */
final class ProgressIndices {

    private final MethodHandle producer;
    private final MethodHandle consumer;
    final long capacity;

    private ProgressIndices(final MethodHandle producer, final MethodHandle consumer, final long capacity) {
        this.producer = producer;
        this.consumer = consumer;
        this.capacity = capacity;
    }

    /** @return the indices of a JCTools queue, or null when its class has none */
    static ProgressIndices of(final Object queue) {
        final Class<?> indicators = find(queue.getClass());
        if (indicators == null) {
            return null;
        }
        try {
            final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            final MethodType asLong = MethodType.methodType(long.class, Object.class);
            final MethodHandle producer = lookup.findVirtual(indicators, "currentProducerIndex", MethodType.methodType(long.class)).asType(asLong);
            final MethodHandle consumer = lookup.findVirtual(indicators, "currentConsumerIndex", MethodType.methodType(long.class)).asType(asLong);
            long capacity = -1;
            try {
                final int bound = (int) queue.getClass().getMethod("capacity").invoke(queue);
                capacity = bound < 0 || bound == Integer.MAX_VALUE ? -1 : bound;
            } catch (final ReflectiveOperationException | ClassCastException e) {
                capacity = -1;
            }
            return new ProgressIndices(producer, consumer, capacity);
        } catch (final ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static Class<?> find(final Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (final Class<?> i : c.getInterfaces()) {
                if (i.getName().equals(QueueTypes.PROGRESS_INDICATORS.replace('/', '.'))) {
                    return i;
                }
                final Class<?> inherited = find(i);
                if (inherited != null) {
                    return inherited;
                }
            }
        }
        return null;
    }

    long produced(final Object queue) throws Throwable {
        return (long) producer.invokeExact(queue);
    }

    long consumed(final Object queue) throws Throwable {
        return (long) consumer.invokeExact(queue);
    }
}
