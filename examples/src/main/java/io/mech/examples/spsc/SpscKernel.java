package io.mech.examples.spsc;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.Team;
import io.mech.examples.VariantDescriptor;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A single-producer single-consumer queue improved one step per variant; printed in order the
 * variants form a throughput ladder. Always one producer and one consumer.
 */
public final class SpscKernel implements Kernel {

    /** Capacity of every queue in the ladder: a power of two so each step differs in one thing. */
    public static final int CAPACITY = 1024;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("spsc",
            "a single-producer single-consumer ring, one improvement per step",
            List.of(
                    VariantDescriptor.builder("blocking-queue", "baseline: ArrayBlockingQueue, one lock for both ends")
                            .flags(Finding.LOCK_CONTENTION, ReentrantLock.class).build(),
                    VariantDescriptor.builder("volatile-modulo", "step 1: volatile head and tail, slot by %")
                            .flags(Finding.FALSE_SHARING, ModuloQueue.class, "head", "tail")
                            .jvmArgs("-XX:ObjectAlignmentInBytes=64").build(),
                    VariantDescriptor.builder("lazy-set", "step 2: indices published with setRelease (lazySet)")
                            .flags(Finding.FALSE_SHARING, LazySetQueue.class, "head", "tail")
                            .jvmArgs("-XX:ObjectAlignmentInBytes=64").build(),
                    VariantDescriptor.builder("power-of-two", "step 3: slot by mask, not division")
                            .flags(Finding.FALSE_SHARING, MaskQueue.class, "head", "tail")
                            .jvmArgs("-XX:ObjectAlignmentInBytes=64").build(),
                    VariantDescriptor.builder("padded", "step 4: head and tail padded onto their own lines")
                            .build(),
                    VariantDescriptor.builder("cached", "step 5: each side caches the other's index")
                            .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final Transfer transfer = new Transfer(queue(variant.name()).get());
        final Team team = new Team();
        final long start = System.nanoTime();
        team.start("spsc-consumer", transfer::consume);
        team.start("spsc-producer", () -> transfer.produce(team.stop()));
        team.runFor(config.nanos());
        team.join();
        final long nanos = System.nanoTime() - start;
        Check.equal("elements consumed", transfer.produced(), transfer.consumed());
        Check.equal("elements lost, repeated or reordered", 0, transfer.mismatches());
        return Measurement.of(2, transfer.consumed(), nanos);
    }

    /**
     * @param variant a variant name of this kernel
     * @return a factory for empty queues of that step, capacity {@link #CAPACITY}
     */
    public static Supplier<SpscQueue<Object>> queue(final String variant) {
        switch (variant) {
            case "blocking-queue":
                return () -> new BlockingQueueAdapter<>(CAPACITY);
            case "volatile-modulo":
                return () -> new ModuloQueue<>(CAPACITY);
            case "lazy-set":
                return () -> new LazySetQueue<>(CAPACITY);
            case "power-of-two":
                return () -> new MaskQueue<>(CAPACITY);
            case "padded":
                return () -> new PaddedQueue<>(CAPACITY);
            case "cached":
                return () -> new CachedQueue<>(CAPACITY);
            default:
                throw new IllegalArgumentException("no spsc variant " + variant);
        }
    }
}
