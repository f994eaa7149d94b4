package io.mech.examples;

/**
 * The runnable side of a kernel. Implementations are plain Java: the JMH wrappers call the same
 * building blocks, never the other way round.
 */
public interface Kernel {

    /** @return the kernel's name, variants and ground truth */
    KernelDescriptor descriptor();

    /**
     * Runs one variant for the configured time, then checks its own result.
     *
     * @param variant one of {@link #descriptor()}'s variants
     * @param config  duration and thread count
     * @return what was done and how long it took
     * @throws CheckFailedException if the kernel computed a wrong answer
     * @throws VariantUnavailableException if this JVM cannot run the variant as declared
     * @throws InterruptedException if the calling thread is interrupted
     */
    Measurement run(VariantDescriptor variant, RunConfig config) throws InterruptedException;
}
