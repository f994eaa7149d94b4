package io.mech.examples.safepoint;

import io.mech.examples.Check;
import io.mech.examples.Finding;
import io.mech.examples.Kernel;
import io.mech.examples.KernelDescriptor;
import io.mech.examples.Measurement;
import io.mech.examples.RunConfig;
import io.mech.examples.TimedRun;
import io.mech.examples.VariantDescriptor;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;

/**
 * A thread the JVM cannot stop, against its twin that it can. One thread copies a large array
 * again and again while another asks for a safepoint every few milliseconds, as monitoring,
 * deoptimisation or a collector would. {@link System#arraycopy} of a primitive array runs to its
 * end without a safepoint poll, so each safepoint waits for the copy in progress: every thread
 * already stopped waits with it, the time to safepoint. The twin copies the same bytes 8 KiB
 * at a time, and its loop reaches a poll about every millisecond.
 */
public final class SafepointDelayKernel implements Kernel {

    /** 32 Mi longs, 256 MiB: a copy takes tens of milliseconds on a laptop's or a VM's memory. */
    static final int LONGS = 32 << 20;

    private static final KernelDescriptor DESCRIPTOR = new KernelDescriptor("safepoint-delay",
            "a thread copying a large array holds every safepoint until its copy ends",
            List.of(
                    VariantDescriptor.builder("bulk-copy", "System.arraycopy of 256 MiB in one call, while safepoints are asked for")
                            .flags(Finding.SAFEPOINT_DELAY, BulkCopy.class).twin("chunked-copy").jvmArgs("-Xmx1g").build(),
                    VariantDescriptor.builder("chunked-copy", "fix: the same bytes copied 8 KiB at a time, a poll at least every millisecond")
                            .jvmArgs("-Xmx1g").build()));

    @Override
    public KernelDescriptor descriptor() {
        return DESCRIPTOR;
    }

    @Override
    public Measurement run(final VariantDescriptor variant, final RunConfig config) throws InterruptedException {
        final Copy copy = variant.name().equals("bulk-copy") ? new BulkCopy(LONGS) : new ChunkedCopy(LONGS);
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final TimedRun.Result result = TimedRun.run(config, List.of(
                new TimedRun.Role("safepoint-delay-copier", 1, copy::copies),
                new TimedRun.Role("safepoint-delay-requester", 1, ops -> {
                    for (int i = 0; i < ops; i++) {
                        Thread.sleep(5);
                        // a cheap VM operation that needs a safepoint
                        threads.findDeadlockedThreads();
                    }
                })));
        Check.equal("pages copied", copy.pageSum(copy.from), copy.pageSum(copy.to));
        return Measurement.of(1, result.ops()[0], result.nanos()).with("safepoints_asked", result.ops()[1]);
    }

    /** Copies one array into another, counting each whole copy as one operation. */
    abstract static class Copy {
        final long[] from;
        final long[] to;

        Copy(final int longs) {
            from = new long[longs];
            to = new long[longs];
            for (int i = 0; i < longs; i += 4096) {
                from[i] = i;
            }
        }

        final void copies(final int ops) {
            for (int i = 0; i < ops; i++) {
                copy();
            }
        }

        /** The sum of every page's first long in the copy, which the source's set-up fixes. */
        final long pageSum(final long[] array) {
            long sum = 0;
            for (int i = 0; i < array.length; i += 4096) {
                sum += array[i];
            }
            return sum;
        }

        abstract void copy();
    }

    /** The defect: one call, no poll until it returns. */
    static final class BulkCopy extends Copy {
        BulkCopy(final int longs) {
            super(longs);
        }

        @Override
        void copy() {
            System.arraycopy(from, 0, to, 0, from.length);
        }
    }

    /**
     * The fix: pieces of 8 KiB. C2 keeps a safepoint poll in a counted loop only once every
     * 1,000 iterations (loop strip mining), so 256 pieces of 1 MiB had no poll at all: each call
     * held safepoints for its whole 256 MiB, tens of milliseconds. 32,768 pieces of 8 KiB reach a
     * poll about every millisecond.
     */
    static final class ChunkedCopy extends Copy {
        private static final int PIECE = 1 << 10;

        ChunkedCopy(final int longs) {
            super(longs);
        }

        @Override
        void copy() {
            for (int at = 0; at < from.length; at += PIECE) {
                System.arraycopy(from, at, to, at, Math.min(PIECE, from.length - at));
            }
        }
    }
}
