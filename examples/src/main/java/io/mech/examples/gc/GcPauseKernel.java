package io.mech.examples.gc;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.TimedRun;
import io.mech.examples.VariantDescriptor;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Steady allocation with a large live set, for the hiccup recorder, and the same allocation
 * with a tiny live set. Heap: the live set is a quarter of the maximum heap, capped at 128 MiB,
 * so about 4x the live set suffices: it runs under -Xmx512m and in a default JVM alike. One thread.
 */
public final class GcPauseKernel implements Kernel {

    static final long MAX_LIVE_BYTES = 128L << 20;
    static final long SMALL_LIVE_BYTES = 64L << 10;
    private static final int BATCH = 256;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("gc-pause",
            "allocation that keeps a large live set churning, so collections stop the world for long",
            List.of(
                    VariantDescriptor.builder("large-live-set",
                                    "replaces random records of a live set of min(128 MiB, max heap / 4)")
                            .flags(Finding.GC_HICCUP).twin("small-live-set").build(),
                    VariantDescriptor.builder("small-live-set", "fix: the same churn over a 64 KiB live set")
                            .build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final long liveBytes = variant.name().equals("large-live-set") ? largeLiveBytes() : SMALL_LIVE_BYTES;
        final LiveSet liveSet = new LiveSet(liveBytes);
        final long[] before = gcTotals();
        final TimedRun.Result result = TimedRun.run(config, List.of(
                new TimedRun.Role("gc-pause-churner", BATCH, liveSet::churn)));
        final long[] after = gcTotals();
        Check.equal("live-set key sum", liveSet.trackedSum(), liveSet.recomputedSum());
        return Measurement.of(1, result.total(), result.nanos())
                .with("live_mib", liveSet.size() * (long) LiveSet.RECORD_BYTES >> 20)
                .with("gc_count", after[0] - before[0])
                .with("gc_ms", after[1] - before[1]);
    }

    /** @return the live-set size for the defect: a quarter of the heap, capped */
    public static long largeLiveBytes() {
        return Math.min(MAX_LIVE_BYTES, Runtime.getRuntime().maxMemory() / 4);
    }

    private static long[] gcTotals() {
        long count = 0;
        long millis = 0;
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new long[] {count, millis};
    }
}
