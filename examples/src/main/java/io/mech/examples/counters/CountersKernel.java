package io.mech.examples.counters;

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
import java.util.function.Supplier;

/** Every thread increments one shared count; the variants differ in how the increment is made. */
public final class CountersKernel implements Kernel {

    private static final int DEFAULT_THREADS = 2;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("counters",
            "threads increment one shared count: LOCK XADD, a CAS retry loop, LongAdder",
            List.of(
                    VariantDescriptor.builder("get-and-increment", "VarHandle getAndAdd (LOCK XADD)")
                            .flags(Finding.TRUE_SHARING, XaddCounter.class, "value").build(),
                    VariantDescriptor.builder("cas-loop", "read then compareAndSet, retrying on failure")
                            .flags(Finding.TRUE_SHARING, CasLoopCounter.class, "value").build(),
                    VariantDescriptor.builder("long-adder", "fix: LongAdder's per-thread cells")
                            .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final int threads = config.threadsOr(DEFAULT_THREADS);
        final SharedCounter counter = counter(variant.name()).get();
        final List<TimedRun.Role> roles = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            roles.add(new TimedRun.Role("counters-incrementer-" + t, TimedRun.BATCH_DEFAULT, counter::increment));
        }
        final TimedRun.Result result = TimedRun.run(config, roles);
        Check.equal("shared count", result.total(), counter.sum());
        return Measurement.of(threads, result.total(), result.nanos());
    }

    /**
     * @param variant a variant name of this kernel
     * @return a factory for fresh counters of that kind
     */
    public static Supplier<SharedCounter> counter(final String variant) {
        switch (variant) {
            case "get-and-increment":
                return XaddCounter::new;
            case "cas-loop":
                return CasLoopCounter::new;
            case "long-adder":
                return AdderCounter::new;
            default:
                throw new IllegalArgumentException("no counters variant " + variant);
        }
    }
}
