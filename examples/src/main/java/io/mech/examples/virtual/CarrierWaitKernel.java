package io.mech.examples.virtual;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.VariantDescriptor;
import io.mech.examples.VariantUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Virtual threads that compute for long stretches keep every carrier of the default scheduler
 * busy, so a virtual thread that wakes from a sleep waits for a carrier: a stall that no
 * platform thread sees, since the operating system still shares the cores among platform
 * threads. One virtual thread per carrier computes in 50 ms slices with a 1 ms sleep between
 * them; the twin runs the same work on as many platform threads, as CPU-bound work should run,
 * and leaves the carriers free. JDK 21 and later.
 *
 * <p>The pinning pair: one virtual thread per carrier sleeps 20 ms inside a static initializer,
 * again and again (each round initialises a fresh copy of the class). A virtual thread blocked
 * under the JVM's call into an initializer keeps its carrier (JDK 21 and later; JDK 24 stopped
 * pinning for {@code synchronized}, not for this), so every carrier is held while it sleeps. The
 * twin sleeps the same 20 ms after the initializer has returned, and gives its carrier back.
 * Both sleep 1 ms unpinned between rounds, as a service's threads block between requests: a
 * carrier pinned for good would starve every other virtual thread until the run ends, and a
 * meter that never runs measures nothing until then (it measures as it wakes).
 *
 * <p>Slices that end in {@code Thread.yield()} instead of a sleep starve a waking virtual
 * thread for as long as they run (measured on JDK 25: a virtual thread sleeping 1 ms never ran
 * again in 20 s), which is the same defect but leaves a meter nothing to measure until it ends.
 */
public final class CarrierWaitKernel implements Kernel {

    private static final long SLICE_NANOS = 50_000_000L;
    /** How long each round sleeps, pinned or not: above JFR's default 20 ms threshold for pinned events, just. */
    static final long SLEEP_MILLIS = 21;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("carrier-wait",
            "virtual threads that compute without blocking hold every carrier, and a waking virtual thread waits",
            List.of(
                    VariantDescriptor.builder("virtual-compute", "one virtual thread per carrier computes 50 ms between 1 ms sleeps")
                            .flags(Finding.CARRIER_WAIT).twin("platform-compute").build(),
                    VariantDescriptor.builder("platform-compute", "fix: the same work on as many platform threads").build(),
                    VariantDescriptor.builder("pinned-init", "one virtual thread per carrier sleeps 20 ms inside a static initializer, pinned")
                            .flags(Finding.CARRIER_WAIT).twin("unpinned-sleep").build(),
                    VariantDescriptor.builder("unpinned-sleep", "fix: the same sleep after the initializer returns, unmounted").build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final int carriers = Runtime.getRuntime().availableProcessors();
        final AtomicBoolean stop = new AtomicBoolean();
        final List<Future<long[]>> workers = new ArrayList<>(carriers);
        final long start = System.nanoTime();
        // the twin needs virtual threads too: only then is it the same JVM, with carriers to keep free
        final ExecutorService virtual = virtualThreads();
        final boolean initializers = variant.name().equals("pinned-init") || variant.name().equals("unpinned-sleep");
        final ExecutorService executor = variant.name().equals("platform-compute") ? Executors.newFixedThreadPool(carriers) : virtual;
        try {
            for (int i = 0; i < carriers; i++) {
                final boolean pinned = variant.name().equals("pinned-init");
                final FreshClassLoader.Copies copies = initializers ? FreshClassLoader.of(pinned ? SleepingInit.class : QuickInit.class) : null;
                workers.add(executor.submit(initializers ? () -> initialize(copies, pinned, stop) : () -> compute(stop)));
            }
            TimeUnit.NANOSECONDS.sleep(config.nanos());
            stop.set(true);
            long ops = 0;
            long mixed = 0;
            for (final Future<long[]> worker : workers) {
                final long[] done = worker.get();
                ops += done[0];
                mixed ^= done[1];
            }
            Check.that(ops > 0, "the virtual threads computed nothing");
            return Measurement.of(carriers, ops, System.nanoTime() - start).with("mixed", mixed & 0xff);
        } catch (final ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            stop.set(true);
            executor.shutdown();
            virtual.shutdown();
        }
    }

    /** Mixes numbers in 50 ms slices with a 1 ms sleep between them; returns {rounds, result}. */
    private static long[] compute(final AtomicBoolean stop) throws InterruptedException {
        long rounds = 0;
        long x = 0x9E3779B97F4A7C15L;
        while (!stop.get()) {
            final long until = System.nanoTime() + SLICE_NANOS;
            do {
                for (int i = 0; i < 256; i++) {
                    x ^= x << 13;
                    x ^= x >>> 7;
                    x ^= x << 17;
                }
                rounds++;
            } while (System.nanoTime() < until);
            Thread.sleep(1);
        }
        return new long[] {rounds, x};
    }

    /**
     * Initialises a fresh copy of a class each round and sleeps: inside its initializer when
     * pinned, after it otherwise; returns {rounds, rounds}.
     */
    private static long[] initialize(final FreshClassLoader.Copies copies, final boolean pinned, final AtomicBoolean stop)
        throws InterruptedException {
        long rounds = 0;
        while (!stop.get()) {
            try {
                copies.next().initialized();
            } catch (final ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            if (!pinned) {
                Thread.sleep(SLEEP_MILLIS);
            }
            Thread.sleep(1);
            rounds++;
        }
        return new long[] {rounds, rounds};
    }

    /** Its initializer blocks: the virtual thread running it is pinned to its carrier meanwhile. */
    static final class SleepingInit {
        static {
            try {
                Thread.sleep(SLEEP_MILLIS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private SleepingInit() {
        }
    }

    /** Its initializer returns at once. */
    static final class QuickInit {
        static final long LOADED = System.nanoTime();

        private QuickInit() {
        }
    }

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}, looked up because the kernels build for JDK 17. */
    private static ExecutorService virtualThreads() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (final ReflectiveOperationException e) {
            throw new VariantUnavailableException("carrier-wait needs virtual threads: JDK 21 or later");
        }
    }
}
