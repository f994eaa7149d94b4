package io.mech.examples.falsesharing;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.JvmOptions;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.TimedRun;
import io.mech.examples.VariantDescriptor;
import io.mech.examples.VariantUnavailableException;
import java.util.List;
import java.util.function.Supplier;

/**
 * Two threads, each incrementing its own volatile counter. Where the counters live decides
 * whether the two cores fight over one cache line. Always two threads.
 */
public final class FalseSharingKernel implements Kernel {

    /** Alignment that starts every object on a line, making same-line placement certain. */
    static final String ALIGN_TO_LINES = "-XX:ObjectAlignmentInBytes=64";
    /** Alignment that starts every object on a 128-byte pair of lines, as the adjacent-line prefetcher pulls them. */
    static final String ALIGN_TO_LINE_PAIRS = "-XX:ObjectAlignmentInBytes=128";
    static final String UNRESTRICT_CONTENDED = "-XX:-RestrictContended";

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("false-sharing",
            "two threads each increment their own volatile long; placement decides whether they share a line",
            List.of(
                    VariantDescriptor.builder("same-object", "two hot fields of one object")
                            .flags(Finding.FALSE_SHARING, SharedCounters.class, "first", "second")
                            .jvmArgs(ALIGN_TO_LINES).twin("padded").build(),
                    VariantDescriptor.builder("static-fields", "two static fields, adjacent in the Class mirror")
                            .flags(Finding.FALSE_SHARING, StaticCounters.class, "first", "second")
                            .jvmArgs(ALIGN_TO_LINES).twin("padded").build(),
                    VariantDescriptor.builder("object-array",
                                    "array of 24-byte cells allocated back to back, neighbours owned by different threads")
                            .flags(Finding.FALSE_SHARING, Cell.class, "value").twin("padded").build(),
                    VariantDescriptor.builder("padded", "fix: a 128-byte pad class chain around each field")
                            .build(),
                    VariantDescriptor.builder("adjacent-lines",
                                    "the two counters 64 bytes apart: neighbouring lines of one 128-byte pair, never one line")
                            .jvmArgs(ALIGN_TO_LINE_PAIRS).build(),
                    VariantDescriptor.builder("separate-objects", "fix: each counter in a padded object of its own, allocated by its writer")
                            .build(),
                    VariantDescriptor.builder("contended",
                                    "fix: @Contended fields; needs -XX:-RestrictContended to run, else skipped")
                            .jvmArgs(UNRESTRICT_CONTENDED).build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final CounterPair pair = layout(variant.name()).get();
        final TimedRun.Result result = TimedRun.run(config, List.of(
                new TimedRun.Role("false-sharing-first-writer", TimedRun.BATCH_DEFAULT, pair::runFirst),
                new TimedRun.Role("false-sharing-second-writer", TimedRun.BATCH_DEFAULT, pair::runSecond)));
        Check.equal("first counter", result.ops()[0], pair.first());
        Check.equal("second counter", result.ops()[1], pair.second());
        return Measurement.of(2, result.total(), result.nanos());
    }

    /**
     * The layout a variant name stands for, refusing where this JVM would not honour the
     * variant's declared ground truth.
     *
     * @param variant a variant name of this kernel
     * @return a factory for fresh counter pairs
     * @throws VariantUnavailableException if this JVM cannot give the variant its declared layout
     */
    public static Supplier<CounterPair> layout(final String variant) {
        switch (variant) {
            case "same-object":
                return SharedCounters::new;
            case "static-fields":
                return StaticCounters::new;
            case "object-array":
                if (JvmOptions.objectAlignment() >= 64) {
                    throw new VariantUnavailableException("object-array needs the default object alignment: "
                            + ALIGN_TO_LINES + " gives every cell a line of its own");
                }
                return CellArray::new;
            case "padded":
                return PaddedCounters::new;
            case "adjacent-lines":
                return AdjacentCounters::new;
            case "separate-objects":
                return SeparateCounters::new;
            case "contended":
                if (!JvmOptions.value("RestrictContended").orElse("true").equals("false")) {
                    throw new VariantUnavailableException("contended needs " + UNRESTRICT_CONTENDED
                            + " at run time: without it the JVM ignores @Contended outside the JDK");
                }
                return ContendedCounters::new;
            default:
                throw new IllegalArgumentException("no false-sharing variant " + variant);
        }
    }
}
