package io.mech.examples.mpsc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.AbstractQueue;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/** Keeps the producers' tail off the line of whatever the allocator placed before the queue. */
abstract class MpscLinkedQueuePad0<E> extends AbstractQueue<E> {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The tail every producer swaps. */
abstract class MpscLinkedQueueProducerNode<E> extends MpscLinkedQueuePad0<E> {
    volatile MpscLinkedQueue.Node<E> producerNode;
}

/** Keeps the producers' tail and the consumer's head 128 bytes apart. */
abstract class MpscLinkedQueuePad1<E> extends MpscLinkedQueueProducerNode<E> {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}

/** The head (a consumed stub node) only the consumer moves. */
abstract class MpscLinkedQueueConsumerNode<E> extends MpscLinkedQueuePad1<E> {
    volatile MpscLinkedQueue.Node<E> consumerNode;
}

/** Keeps the consumer's head off whatever is allocated after the queue. */
abstract class MpscLinkedQueuePad2<E> extends MpscLinkedQueueConsumerNode<E> {
    long r00, r01, r02, r03, r04, r05, r06, r07, r08, r09, r10, r11, r12, r13, r14, r15;
}

/**
 * Dmitry Vyukov's intrusive-free multi-producer single-consumer linked queue as a
 * {@link java.util.Queue}.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>Any number of threads may {@link #offer}; exactly one thread at a time may
 *       {@link #poll}, {@link #peek} or {@link #clear}. Offer is wait-free: one atomic swap.</li>
 *   <li>Elements from one producer are polled in the order that producer offered them; each
 *       element is polled exactly once.</li>
 *   <li>{@link #poll} returns null only when the queue is empty. A producer that has swapped the
 *       tail but not yet linked its node leaves a gap; poll waits out the gap instead of
 *       reporting a queue that holds an element as empty.</li>
 *   <li>{@link #size} may be called from any thread and always terminates: it walks from the
 *       head to the tail it saw on entry, so it is bounded by the elements present then, and it
 *       stops early (undercounting) at a producer's unlinked gap or a node consumed under it.</li>
 *   <li>A consumed node is linked to itself, so that a dead node promoted to the old generation
 *       cannot keep the young nodes after it alive.</li>
 *   <li>Unbounded: nothing stops producers that outpace the consumer. Null elements and
 *       removal through the iterator are not supported.</li>
 * </ul>
 *
 * @param <E> element type
 */
public final class MpscLinkedQueue<E> extends MpscLinkedQueuePad2<E> {

    private static final VarHandle PRODUCER_NODE;
    private static final VarHandle NEXT;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCER_NODE = lookup.findVarHandle(MpscLinkedQueueProducerNode.class, "producerNode", Node.class);
            NEXT = lookup.findVarHandle(Node.class, "next", Node.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A link. {@code value} is written before the node is published by the tail swap and read
     * after {@code next} is seen non-null, so it needs no ordering of its own.
     */
    static final class Node<E> {
        E value;
        volatile Node<E> next;

        Node(final E value) {
            this.value = value;
        }
    }

    /** Creates an empty queue: head and tail both point at one stub node. */
    public MpscLinkedQueue() {
        final Node<E> stub = new Node<>(null);
        consumerNode = stub;
        producerNode = stub;
    }

    @Override
    public boolean offer(final E element) {
        Objects.requireNonNull(element, "element");
        final Node<E> node = new Node<>(element);
        @SuppressWarnings("unchecked")
        final Node<E> previous = (Node<E>) PRODUCER_NODE.getAndSet(this, node);
        NEXT.setRelease(previous, node);
        return true;
    }

    @Override
    public E poll() {
        final Node<E> head = consumerNode;
        final Node<E> next = nextOf(head);
        if (next == null) {
            return null;
        }
        final E value = next.value;
        next.value = null;
        consumerNode = next;
        // A consumed node pointing at live ones would let a dead old-generation node keep young ones alive.
        NEXT.setRelease(head, head);
        return value;
    }

    @Override
    public E peek() {
        final Node<E> next = nextOf(consumerNode);
        return next == null ? null : next.value;
    }

    /** The node after {@code node}, waiting out a producer's unlinked gap; null only if empty. */
    private Node<E> nextOf(final Node<E> node) {
        Node<E> next = node.next;
        if (next == null && node != producerNode) {
            while ((next = node.next) == null) {
                Thread.onSpinWait();
            }
        }
        return next;
    }

    @Override
    public boolean isEmpty() {
        return consumerNode == producerNode;
    }

    @Override
    public int size() {
        final Node<E> last = producerNode;
        Node<E> node = consumerNode;
        int size = 0;
        while (node != last && size < Integer.MAX_VALUE) {
            final Node<E> next = node.next;
            if (next == null || next == node) {
                // Unlinked gap of a producer mid-offer, or a node consumed under us: stop rather than wait.
                break;
            }
            node = next;
            size++;
        }
        return size;
    }

    /**
     * A weakly consistent, read-only iterator: it may miss elements polled or offered while it
     * runs, never returns one twice, and stops at a producer's unlinked gap.
     */
    @Override
    public Iterator<E> iterator() {
        return new Iterator<>() {
            private Node<E> node = consumerNode;
            private E value;

            @Override
            public boolean hasNext() {
                while (value == null) {
                    final Node<E> next = node.next;
                    if (next == null || next == node) {
                        return false;
                    }
                    node = next;
                    value = next.value;
                }
                return true;
            }

            @Override
            public E next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                final E result = value;
                value = null;
                return result;
            }
        };
    }
}
