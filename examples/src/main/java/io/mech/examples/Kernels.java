package io.mech.examples;

import io.mech.examples.backpressure.BackPressureKernel;
import io.mech.examples.coordinatedomission.CoordinatedOmissionKernel;
import io.mech.examples.counters.CountersKernel;
import io.mech.examples.executor.ExecutorKernel;
import io.mech.examples.falsesharing.FalseSharingKernel;
import io.mech.examples.flyweight.FlyweightKernel;
import io.mech.examples.gc.GcPauseKernel;
import io.mech.examples.ipc.IpcKernel;
import io.mech.examples.safepoint.SafepointDelayKernel;
import io.mech.examples.virtual.CarrierWaitKernel;
import io.mech.examples.lazyset.LazySetKernel;
import io.mech.examples.littleslaw.LittlesLawKernel;
import io.mech.examples.locks.LocksKernel;
import io.mech.examples.memory.MemoryAccessKernel;
import io.mech.examples.mpsc.MpscKernel;
import io.mech.examples.serialization.SerializationKernel;
import io.mech.examples.spsc.SpscKernel;
import io.mech.examples.truesharing.TrueSharingKernel;
import java.util.List;
import java.util.Optional;

/**
 * The catalogue of kernels and their ground truth. This is the API integration tests read:
 *
 * <pre>{@code
 * for (KernelDescriptor kernel : Kernels.all()) {
 *     for (VariantDescriptor variant : kernel.variants()) {
 *         boolean mustFlag = variant.findings().contains(Finding.FALSE_SHARING);
 *         List<Site> where = variant.sites(Finding.FALSE_SHARING);
 *     }
 * }
 * }</pre>
 */
public final class Kernels {

    private static final List<Kernel> KERNELS = List.of(
            new FalseSharingKernel(),
            new TrueSharingKernel(),
            new CountersKernel(),
            new SpscKernel(),
            new MpscKernel(),
            new MemoryAccessKernel(),
            new FlyweightKernel(),
            new SerializationKernel(),
            new LocksKernel(),
            new LazySetKernel(),
            new BackPressureKernel(),
            new ExecutorKernel(),
            new LittlesLawKernel(),
            new CoordinatedOmissionKernel(),
            new GcPauseKernel(),
            new SafepointDelayKernel(),
            new CarrierWaitKernel(),
            new IpcKernel());

    private static final List<KernelDescriptor> DESCRIPTORS =
            KERNELS.stream().map(Kernel::descriptor).toList();

    private Kernels() {
    }

    /** @return every kernel in catalogue order, immutable */
    public static List<KernelDescriptor> all() {
        return DESCRIPTORS;
    }

    /**
     * @param name a kernel name, e.g. {@code false-sharing}
     * @return its descriptor, if there is such a kernel
     */
    public static Optional<KernelDescriptor> named(final String name) {
        return DESCRIPTORS.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    static Optional<Kernel> runnable(final String name) {
        return KERNELS.stream().filter(k -> k.descriptor().name().equals(name)).findFirst();
    }
}
