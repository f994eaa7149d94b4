package io.mech.examples.truesharing;

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
import java.util.concurrent.atomic.AtomicReferenceArray;

/** Every thread counts calls and polls every 256; the counter is either global or per thread. */
public final class TrueSharingKernel implements Kernel {

    private static final int DEFAULT_THREADS = 2;
    /** Longs from one thread's poll count to the next's: 128 bytes, no shared line or prefetched pair. */
    private static final int POLL_STRIDE = 16;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("true-sharing",
            "every thread bumps a call counter and polls every 256 calls (the JRuby case)",
            List.of(
                    VariantDescriptor.builder("global-counter", "one static counter written by every thread")
                            .flags(Finding.TRUE_SHARING, GlobalPollCounter.class, "counter")
                            .twin("per-thread").build(),
                    VariantDescriptor.builder("per-thread", "fix: per-thread counters combined at the end")
                            .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final int threads = config.threadsOr(DEFAULT_THREADS);
        return variant.name().equals("global-counter") ? runGlobal(threads, config) : runPerThread(threads, config);
    }

    private static Measurement runGlobal(final int threads, final RunConfig config) throws InterruptedException {
        GlobalPollCounter.reset();
        // each thread's poll count 16 longs (128 bytes) from the next: side by side they would add false sharing of their
        // own, which the false-sharing probe rightly flags, to the true sharing this variant is about
        final long[] polls = new long[threads * POLL_STRIDE];
        final List<TimedRun.Role> roles = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int slot = t;
            roles.add(new TimedRun.Role("true-sharing-caller-" + t, TimedRun.BATCH_DEFAULT, times -> {
                long local = 0;
                for (int i = 0; i < times; i++) {
                    if (GlobalPollCounter.tick()) {
                        local++;
                    }
                }
                polls[slot * POLL_STRIDE] += local;
            }));
        }
        final TimedRun.Result result = TimedRun.run(config, roles);
        final long counted = GlobalPollCounter.value();
        final long total = result.total();
        Check.that(counted > 0 && counted <= total,
                "global counter must be in (0, " + total + "] calls, was " + counted);
        long pollSum = 0;
        for (final long p : polls) {
            pollSum += p;
        }
        // Lost updates make the racy counter revisit multiples of 256, so polls have no exact expected count.
        return Measurement.of(threads, total, result.nanos()).with("lost_updates", total - counted).with("polls", pollSum);
    }

    private static Measurement runPerThread(final int threads, final RunConfig config) throws InterruptedException {
        final AtomicReferenceArray<LocalPollCounter> counters = new AtomicReferenceArray<>(threads);
        final List<TimedRun.Role> roles = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int slot = t;
            roles.add(new TimedRun.Role("true-sharing-caller-" + t, TimedRun.BATCH_DEFAULT, times -> {
                LocalPollCounter counter = counters.getPlain(slot);
                if (counter == null) {
                    counter = new LocalPollCounter();
                    counters.setPlain(slot, counter);
                }
                counter.run(times);
            }));
        }
        final TimedRun.Result result = TimedRun.run(config, roles);
        long combined = 0;
        long polls = 0;
        for (int t = 0; t < threads; t++) {
            final LocalPollCounter counter = counters.get(t);
            final long ops = result.ops()[t];
            Check.equal("calls counted by thread " + t, ops, counter == null ? 0 : counter.count());
            Check.equal("polls by thread " + t, ops / 256, counter == null ? 0 : counter.polls());
            combined += ops;
            polls += counter == null ? 0 : counter.polls();
        }
        return Measurement.of(threads, combined, result.nanos()).with("lost_updates", 0).with("polls", polls);
    }
}
