package io.mech.agent.runtime;

import io.mech.exporter.PrometheusEndpoint;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Keeps /metrics served: when the endpoint's accepting thread dies (it outlives what it can
 * catch, a full heap included; under the JDK's server an {@code OutOfMemoryError} in its own loop
 * ended its dispatcher, and /metrics stayed dead after the pressure had passed), the endpoint is
 * closed and started again, on the {@code mech-prometheus-keeper} thread, once the heap has room
 * ({@link HeapRoom}).
 *
 * <p>Thread contract: {@code mech-start} calls {@link #start} once; the dying accepting thread calls
 * {@link #threadDied} through mech's thread group, which sets a flag and unparks the keeper and
 * allocates nothing; the keeper alone restarts; the stop reads {@link #endpoint}, a volatile.
 */
final class MetricsKeeper implements Runnable {

    private final Supplier<PrometheusEndpoint> starting;
    private final BooleanSupplier stopping;
    private volatile PrometheusEndpoint endpoint;
    private volatile boolean restart;
    private volatile Thread keeper;

    /**
     * @param starting starts the endpoint, or says why not and gives null
     * @param stopping whether the host is exiting
     */
    MetricsKeeper(final Supplier<PrometheusEndpoint> starting, final BooleanSupplier stopping) {
        this.starting = starting;
        this.stopping = stopping;
    }

    /** Starts the endpoint and, when it serves, the keeper's thread. */
    void start() {
        // the thread made first: a start a full heap cuts short is made again, and must leave no endpoint serving unkept
        final Thread thread = new Thread(this, "mech-prometheus-keeper");
        thread.setDaemon(true);
        final PrometheusEndpoint started = starting.get();
        if (started != null) {
            try {
                thread.start();
            } catch (final OutOfMemoryError full) {
                started.close();
                throw full;
            }
            endpoint = started;
            keeper = thread;
        }
    }

    /** Told by mech's thread group of each of mech's threads that died. */
    void threadDied(final Thread thread) {
        final Thread waiting = keeper;
        if (waiting != null && thread.getName().equals(PrometheusEndpoint.ACCEPTING_THREAD)) {
            restart = true;
            LockSupport.unpark(waiting);
        }
    }

    @Override
    public void run() {
        while (!stopping.getAsBoolean()) {
            LockSupport.park(this);
            if (!restart) {
                continue;
            }
            try {
                HeapRoom.await(stopping);
                final PrometheusEndpoint dead = endpoint;
                if (dead != null) {
                    dead.close();
                }
                endpoint = starting.get();
                restart = false;
            } catch (final OutOfMemoryError full) {
                // the flag stays up: try again once woken, after the wait for room
                LockSupport.unpark(Thread.currentThread());
            }
        }
    }

    /** @return the endpoint that serves now; null when none does */
    PrometheusEndpoint endpoint() {
        return endpoint;
    }
}
