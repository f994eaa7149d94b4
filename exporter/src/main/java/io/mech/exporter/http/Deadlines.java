package io.mech.exporter.http;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The deadlines of the connections being served, kept by one thread that closes a connection
 * whose deadline passed: a blocked read or write then fails, and the serving thread is free
 * again. Blocking sockets have no write timeout, and a read timeout bounds one read, not a request
 * trickled a byte at a time, a TLS handshake, nor a kept-alive TLS connection fed empty records.
 *
 * <p>Thread contract: each serving thread owns one {@link Slot}, which it arms and disarms; the
 * deadline thread reads every slot and expires a passed one by compare-and-set, so a slot that is
 * disarmed at the same moment is either expired (its serving thread sees its I/O fail and the
 * drop is counted here) or disarmed (and its connection left alone), never both. The deadline
 * thread sets {@link #wakeAt} to {@code ANY} before it looks at the slots and to the nearest
 * deadline after; a serving thread arms its slot, then reads {@link #wakeAt} and unparks the
 * deadline thread when it is {@code ANY} or its deadline is the nearer. Of the two, one sees the
 * other's write, so no deadline is kept late, and an idle endpoint costs no wake-up.
 */
final class Deadlines implements Runnable {

    /** From a serving thread taking a connection, or the first byte of its next request, to the end of that request's head. */
    static final long READ_NANOS = TimeUnit.SECONDS.toNanos(HttpServer.READ_TIMEOUT_SECONDS);
    /** From the response's first byte to its last. */
    static final long WRITE_NANOS = TimeUnit.SECONDS.toNanos(HttpServer.WRITE_TIMEOUT_SECONDS);
    /** From a response to the first byte of the connection's next request. */
    static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(HttpServer.IDLE_MILLIS);

    /** Slot values; an armed deadline is a System.nanoTime, odd when its passing is an idle connection's end, not a drop. */
    private static final long NONE = 0;
    private static final long EXPIRED = Long.MIN_VALUE;
    /** The {@link #wakeAt} that any armed deadline is nearer than: while the slots are looked at, and while none is armed. */
    private static final long ANY = 0;

    private final Slot[] slots;
    private final Drops drops;
    private volatile Thread thread;
    private volatile long wakeAt = ANY;
    private volatile boolean stopped;

    Deadlines(final int slots, final Drops drops) {
        this.slots = new Slot[slots];
        for (int i = 0; i < slots; i++) {
            this.slots[i] = new Slot();
        }
        this.drops = drops;
    }

    /** @return the slot of the serving thread with this index */
    Slot slot(final int index) {
        return slots[index];
    }

    /** Called once, on the deadline thread. */
    @Override
    public void run() {
        thread = Thread.currentThread();
        while (!stopped) {
            try {
                keep();
            } catch (final RuntimeException | OutOfMemoryError e) {
                // closing a connection failed under a full heap: the next round tries again
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    /** One round: expires what passed, then sleeps until the nearest deadline, or one nearer is armed. */
    private void keep() {
        // armed while this look passes its slot: the arming thread sees ANY and leaves a permit, so the park returns at once
        wakeAt = ANY;
        final long nearest = expire();
        if (nearest == Long.MAX_VALUE) {
            if (!stopped) {
                LockSupport.park(this);
            }
        } else {
            wakeAt = nearest;
            LockSupport.parkNanos(this, Math.max(nearest - System.nanoTime(), 1));
        }
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }

    /** Expires the slots whose deadline passed; returns the nearest deadline left, or Long.MAX_VALUE. */
    private long expire() {
        final long now = System.nanoTime();
        long nearest = Long.MAX_VALUE;
        for (final Slot slot : slots) {
            final long deadline = slot.deadline.get();
            if (deadline == NONE || deadline == EXPIRED) {
                continue;
            }
            if (now - deadline >= 0) {
                // read before the slot can be released and given the serving thread's next connection
                final Closeable connection = slot.connection;
                if (slot.deadline.compareAndSet(deadline, EXPIRED)) {
                    if ((deadline & 1) == 0) {
                        drops.timedOut();
                    }
                    close(connection);
                }
            } else if (nearest == Long.MAX_VALUE || deadline - nearest < 0) {
                nearest = deadline;
            }
        }
        return nearest;
    }

    private static void close(final Closeable connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (final IOException ignored) {
                // closing is all that is asked: the serving thread's I/O fails either way
            }
        }
    }

    /** One serving thread's deadline and the connection it closes. */
    final class Slot {

        private final AtomicLong deadline = new AtomicLong();
        private volatile Closeable connection;

        /** Sets the connection a passed deadline closes; its deadline starts unarmed. */
        void serve(final Closeable connection) {
            deadline.set(NONE);
            this.connection = connection;
        }

        /** Forgets the connection, whose serving ended: no deadline of it can pass any more. */
        void release() {
            deadline.set(NONE);
            connection = null;
        }

        /** Arms a read or write deadline this many nanoseconds from now, unless one passed already; its passing is a drop. */
        void arm(final long nanos) {
            armAt((System.nanoTime() + nanos) & ~1L);
        }

        /** Arms the end of a kept-alive connection's wait for its next request, unless a deadline passed already. */
        void armIdle(final long nanos) {
            armAt((System.nanoTime() + nanos) | 1L);
        }

        private void armAt(final long at) {
            final long current = deadline.get();
            if (current == EXPIRED) {
                return;
            }
            final long armed = at == NONE || at == EXPIRED ? at + 2 : at;
            if (deadline.compareAndSet(current, armed)) {
                final long wake = wakeAt;
                if (wake == ANY || armed - wake < 0) {
                    LockSupport.unpark(thread);
                }
            }
        }

        /** Disarms the deadline; false when it passed first, and the connection is closed. */
        boolean disarm() {
            final long current = deadline.get();
            return current != EXPIRED && deadline.compareAndSet(current, NONE);
        }
    }
}
