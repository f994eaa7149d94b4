package io.mech.exporter.http;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The read and write deadlines of the connections being served, kept by one thread that closes
 * a connection whose deadline passed: a blocked read or write then fails, and the serving thread
 * is free again. Blocking sockets have no write timeout, and a read timeout bounds one read, not
 * a request trickled a byte at a time or a TLS handshake.
 *
 * <p>Thread contract: each serving thread owns one {@link Slot}, which it arms and disarms; the
 * deadline thread reads every slot and expires a passed one by compare-and-set, so a slot that is
 * disarmed at the same moment is either expired (its serving thread sees its I/O fail and the
 * drop is counted here) or disarmed (and its connection left alone), never both. The deadline
 * thread sleeps until the nearest deadline, and parks for good while none is armed: a serving
 * thread that arms a slot then unparks it, so an idle endpoint costs no wake-up.
 */
final class Deadlines implements Runnable {

    /** From a serving thread taking a connection, or the first byte of its next request, to the end of that request's head. */
    static final long READ_NANOS = TimeUnit.SECONDS.toNanos(HttpServer.READ_TIMEOUT_SECONDS);
    /** From the response's first byte to its last. */
    static final long WRITE_NANOS = TimeUnit.SECONDS.toNanos(HttpServer.WRITE_TIMEOUT_SECONDS);

    private static final long NONE = 0;
    private static final long EXPIRED = Long.MIN_VALUE;

    private final Slot[] slots;
    private final Drops drops;
    private volatile Thread thread;
    /** Set while the deadline thread is about to park with no deadline armed; an arming thread then unparks it. */
    private volatile boolean sleeping;
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

    /** One round: expires what passed, then sleeps until the nearest deadline, or until one is armed. */
    private void keep() {
        long nearest = expire();
        if (nearest == Long.MAX_VALUE) {
            sleeping = true;
            nearest = expire();
            if (nearest == Long.MAX_VALUE && !stopped) {
                LockSupport.park(this);
            }
            sleeping = false;
        } else {
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
                if (slot.deadline.compareAndSet(deadline, EXPIRED)) {
                    drops.timedOut();
                    slot.close();
                }
            } else if (nearest == Long.MAX_VALUE || deadline - nearest < 0) {
                nearest = deadline;
            }
        }
        return nearest;
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

        /** Arms the deadline this many nanoseconds from now, unless it passed already. */
        void arm(final long nanos) {
            final long current = deadline.get();
            if (current == EXPIRED) {
                return;
            }
            long at = System.nanoTime() + nanos;
            if (at == NONE || at == EXPIRED) {
                at++;
            }
            if (deadline.compareAndSet(current, at) && sleeping) {
                LockSupport.unpark(thread);
            }
        }

        /** Disarms the deadline; false when it passed first, and the connection is closed. */
        boolean disarm() {
            final long current = deadline.get();
            return current != EXPIRED && deadline.compareAndSet(current, NONE);
        }

        /** @return whether the deadline passed and closed the connection */
        boolean expired() {
            return deadline.get() == EXPIRED;
        }

        private void close() {
            final Closeable open = connection;
            if (open != null) {
                try {
                    open.close();
                } catch (final IOException ignored) {
                    // closing is all that is asked: the serving thread's I/O fails either way
                }
            }
        }
    }
}
