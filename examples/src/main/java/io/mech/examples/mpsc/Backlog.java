package io.mech.examples.mpsc;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How far each producer may run ahead of the consumer. The consumer publishes, per producer, how
 * many of its items it has consumed; producers read only their own slot. Slots sit 128 bytes
 * apart so that the consumer's publications never invalidate another producer's slot.
 */
final class Backlog {
    private static final int STRIDE = 16;

    private final AtomicLongArray consumed;
    private final long limit;

    Backlog(final int producers, final long limit) {
        this.consumed = new AtomicLongArray((producers + 1) * STRIDE);
        this.limit = limit;
    }

    /** Consumer side: publish with a release store; producers tolerate staleness. */
    void publish(final int producer, final long count) {
        consumed.setRelease((producer + 1) * STRIDE, count);
    }

    /** Producer side: whether {@code produced} items put this producer too far ahead. */
    boolean tooFarAhead(final int producer, final long produced) {
        return produced - consumed.getAcquire((producer + 1) * STRIDE) >= limit;
    }
}
