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
 * <p>Slices that end in {@code Thread.yield()} instead of a sleep starve a waking virtual
 * thread for as long as they run (measured on JDK 25: a virtual thread sleeping 1 ms never ran
 * again in 20 s), which is the same defect but leaves a meter nothing to measure until it ends.
 */
public final class CarrierWaitKernel implements Kernel {

    private static final long SLICE_NANOS = 50_000_000L;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("carrier-wait",
            "virtual threads that compute without blocking hold every carrier, and a waking virtual thread waits",
            List.of(
                    VariantDescriptor.builder("virtual-compute", "one virtual thread per carrier computes 50 ms between 1 ms sleeps")
                            .flags(Finding.CARRIER_WAIT).twin("platform-compute").build(),
                    VariantDescriptor.builder("platform-compute", "fix: the same work on as many platform threads").build()));

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
        final ExecutorService executor = variant.name().equals("virtual-compute") ? virtual : Executors.newFixedThreadPool(carriers);
        try {
            for (int i = 0; i < carriers; i++) {
                workers.add(executor.submit(() -> compute(stop)));
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

    /** {@code Executors.newVirtualThreadPerTaskExecutor()}, looked up because the kernels build for JDK 17. */
    private static ExecutorService virtualThreads() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (final ReflectiveOperationException e) {
            throw new VariantUnavailableException("carrier-wait needs virtual threads: JDK 21 or later");
        }
    }
}
