package io.mech.examples.executor;

import io.mech.examples.BusyWork;
import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.VariantDescriptor;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A fixed pool of two threads fed tasks at a steady 4,000 per second. The defect: each task
 * takes about 2 ms (a slow call), so the pool finishes under 1,000 per second and its unbounded
 * work queue grows until the submitter's cap. The twin's tasks take microseconds: the queue stays
 * near empty.
 *
 * <p>At the end the submitter stops and the running tasks hold their threads for a quarter of
 * the run (at most a second), so the work queue stands still: the kernel reports its size then as
 * {@code queued_at_end}, what a probe sampling during the hold must read. Then it releases the
 * tasks, shuts the pool down and checks that every task submitted either ran or was drained.
 */
public final class ExecutorKernel implements Kernel {

    static final int THREADS = 2;
    static final long SUBMIT_INTERVAL_NANOS = 250_000;
    static final long SLOW_TASK_NANOS = 2_000_000;
    static final int FAST_TASK_ROUNDS = 200;
    /** The most tasks queued at once: keeps the heap small however long the run. */
    static final int MAX_QUEUED = 50_000;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("executor",
            "a fixed thread pool fed faster than its tasks finish",
            List.of(
                    VariantDescriptor.builder("slow-task", "each task takes 2 ms: the pool's work queue grows")
                            .flags(Finding.QUEUE_DEPTH, ThreadPoolExecutor.class)
                            .twin("fast-task").build(),
                    VariantDescriptor.builder("fast-task", "fix: each task takes microseconds, the queue stays near empty")
                            .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final boolean slow = variant.name().equals("slow-task");
        final ExecutorService pool = Executors.newFixedThreadPool(THREADS, task -> {
            final Thread thread = new Thread(task, "executor-worker");
            thread.setDaemon(true);
            return thread;
        });
        final ThreadPoolExecutor executor = (ThreadPoolExecutor) pool;
        final AtomicLong ran = new AtomicLong();
        final CountDownLatch release = new CountDownLatch(1);
        final Hold hold = new Hold(release);
        final long start = System.nanoTime();
        final long end = start + config.nanos();
        long submitted = 0;
        long maxQueued = 0;
        for (long next = start; next < end; next += SUBMIT_INTERVAL_NANOS) {
            LockSupport.parkNanos(next - System.nanoTime());
            if (executor.getQueue().size() < MAX_QUEUED) {
                pool.execute(() -> {
                    if (slow) {
                        hold.sleep(SLOW_TASK_NANOS);
                    } else if (BusyWork.burn(ran.get() + 1, FAST_TASK_ROUNDS) == 0) {
                        throw new IllegalStateException("unreachable: xorshift never reaches zero");
                    }
                    hold.check();
                    ran.incrementAndGet();
                });
                submitted++;
                maxQueued = Math.max(maxQueued, executor.getQueue().size());
            }
        }
        for (long left = end - System.nanoTime(); left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
        final long nanos = System.nanoTime() - start;
        hold.begin();
        final long holdNanos = Math.min(1_000_000_000L, config.nanos() / 4);
        LockSupport.parkNanos(Math.min(20_000_000L, holdNanos / 4));
        final int queuedAtHold = executor.getQueue().size();
        LockSupport.parkNanos(holdNanos);
        final int queuedAtEnd = executor.getQueue().size();
        release.countDown();
        final List<Runnable> drained = pool.shutdownNow();
        Check.that(pool.awaitTermination(10, TimeUnit.SECONDS), "pool did not terminate");
        Check.equal("tasks submitted that neither ran nor were drained", submitted, ran.get() + drained.size());
        Check.equal("queued tasks moved during the hold", queuedAtHold, queuedAtEnd);
        return Measurement.of(THREADS + 1, ran.get(), nanos).with("queued_at_end", queuedAtEnd).with("max_queued", maxQueued);
    }

    /** Holds the tasks running when it begins until released, so no worker takes another task. */
    private static final class Hold {
        private final CountDownLatch release;
        private volatile boolean holding;

        Hold(final CountDownLatch release) {
            this.release = release;
        }

        void begin() {
            holding = true;
        }

        /** A slow task's work: about {@code nanos}, cut short by the hold. */
        void sleep(final long nanos) {
            final long until = System.nanoTime() + nanos;
            for (long left = nanos; left > 0 && !holding; left = until - System.nanoTime()) {
                LockSupport.parkNanos(left);
            }
        }

        void check() {
            while (holding) {
                try {
                    release.await();
                    return;
                } catch (final InterruptedException e) {
                    // shutdownNow comes only after the release
                }
            }
        }
    }
}
