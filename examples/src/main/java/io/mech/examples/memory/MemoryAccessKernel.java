package io.mech.examples.memory;

import io.mech.examples.Check;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.TimedRun;
import io.mech.examples.VariantDescriptor;
import java.util.List;

/** One thread reads a 64 MiB array in three orders; the ladder shows what locality is worth. */
public final class MemoryAccessKernel implements Kernel {

    private static final int BATCH = 4096;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("memory-access",
            "sum a 64 MiB long[] linearly, randomly within 4 KiB pages, and randomly over the array",
            List.of(
                    VariantDescriptor.builder("linear", "index after index").build(),
                    VariantDescriptor.builder("random-in-page", "random order within each page, pages in order").build(),
                    VariantDescriptor.builder("random-in-heap", "random order over the whole array").build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final AccessPattern pattern = new AccessPattern(order(variant.name()));
        final TimedRun.Result result = TimedRun.run(config, List.of(
                new TimedRun.Role("memory-access-walker", BATCH, pattern::walk)));
        Check.equal("elements read", result.total(), pattern.reads());
        Check.equal("sum of values read", pattern.expectedValueSum(), pattern.valueSum());
        return Measurement.of(1, result.total(), result.nanos());
    }

    /**
     * @param variant a variant name of this kernel
     * @return the walk order it stands for
     */
    public static AccessPattern.Order order(final String variant) {
        switch (variant) {
            case "linear":
                return AccessPattern.Order.LINEAR;
            case "random-in-page":
                return AccessPattern.Order.RANDOM_IN_PAGE;
            case "random-in-heap":
                return AccessPattern.Order.RANDOM_IN_HEAP;
            default:
                throw new IllegalArgumentException("no memory-access variant " + variant);
        }
    }
}
