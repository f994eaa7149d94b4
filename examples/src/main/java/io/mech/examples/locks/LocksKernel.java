package io.mech.examples.locks;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.TimedRun;
import io.mech.examples.VariantDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A counter behind each locking strategy, run by several threads (contended) and by one
 * (single), plus a lone waiter that inflates a monitor nobody contends for.
 */
public final class LocksKernel implements Kernel {

    private static final int DEFAULT_THREADS = 2;
    private static final int WAIT_BATCH = 1;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("locks",
            "a guarded counter under synchronized, a CAS loop, ReentrantLock and a spin lock",
            List.of(
                    VariantDescriptor.builder("synchronized-contended", "threads collide on one monitor")
                            .flags(Finding.LOCK_CONTENTION, SynchronizedCounter.class)
                            .flags(Finding.LOCK_INFLATION, SynchronizedCounter.class)
                            .twin("synchronized-single").build(),
                    VariantDescriptor.builder("synchronized-single", "one thread: the monitor stays thin")
                            .build(),
                    VariantDescriptor.builder("cas-contended", "threads retry compareAndSet on one AtomicInteger")
                            .flags(Finding.TRUE_SHARING, AtomicInteger.class, "value")
                            .twin("cas-single").build(),
                    VariantDescriptor.builder("cas-single", "one thread: every compareAndSet succeeds")
                            .build(),
                    VariantDescriptor.builder("reentrant-contended", "threads collide on one ReentrantLock and park")
                            .flags(Finding.LOCK_CONTENTION, ReentrantLock.class)
                            .twin("reentrant-single").build(),
                    VariantDescriptor.builder("reentrant-single", "one thread: lock and unlock are uncontended CASes")
                            .build(),
                    VariantDescriptor.builder("spin-contended", "threads spin on one lock word, invisible to JVM lock events")
                            .flags(Finding.TRUE_SHARING, SpinLockCounter.class, "locked", "count")
                            .twin("spin-single").build(),
                    VariantDescriptor.builder("spin-single", "one thread: the spin lock never spins")
                            .build(),
                    VariantDescriptor.builder("wait-notify", "one thread waits 1 ms per increment: inflation without contention")
                            .flags(Finding.LOCK_INFLATION, WaitNotifyCounter.class).build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final String name = variant.name();
        final boolean contended = name.endsWith("-contended");
        final int threads = contended ? config.threadsOr(DEFAULT_THREADS) : 1;
        final int batch = name.equals("wait-notify") ? WAIT_BATCH : TimedRun.BATCH_DEFAULT;
        final GuardedCounter counter = counter(name).get();
        final List<TimedRun.Role> roles = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            roles.add(new TimedRun.Role("locks-" + name + "-" + t, batch, counter::increment));
        }
        final TimedRun.Result result = TimedRun.run(config, roles);
        final long expected = counter instanceof CasCounter ? result.total() & 0xFFFF_FFFFL : result.total();
        Check.equal("guarded count", expected, counter.count());
        return Measurement.of(threads, result.total(), result.nanos());
    }

    /**
     * @param variant a variant name of this kernel
     * @return a factory for fresh counters behind that variant's strategy
     */
    public static Supplier<GuardedCounter> counter(final String variant) {
        switch (variant) {
            case "synchronized-contended":
            case "synchronized-single":
                return SynchronizedCounter::new;
            case "cas-contended":
            case "cas-single":
                return CasCounter::new;
            case "reentrant-contended":
            case "reentrant-single":
                return ReentrantLockCounter::new;
            case "spin-contended":
            case "spin-single":
                return SpinLockCounter::new;
            case "wait-notify":
                return WaitNotifyCounter::new;
            default:
                throw new IllegalArgumentException("no locks variant " + variant);
        }
    }
}
