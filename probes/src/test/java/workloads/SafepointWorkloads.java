package workloads;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A thread that keeps safepoints waiting, in application code (outside io.mech), after the
 * examples' safepoint-delay kernel: one long {@link System#arraycopy} has no safepoint poll, so
 * each safepoint the other thread asks for waits for the copy in progress.
 */
public final class SafepointWorkloads {

    private SafepointWorkloads() {
    }

    /** Copies one array into another again and again, until interrupted. */
    public static final class BulkCopier implements Runnable {
        private final long[] from;
        private final long[] to;

        /** @param longs the array length; 8 Mi longs (64 MiB) take several milliseconds a copy */
        public BulkCopier(final int longs) {
            from = new long[longs];
            to = new long[longs];
        }

        @Override
        public void run() {
            while (!Thread.currentThread().isInterrupted()) {
                copy();
            }
        }

        /** The culprit: one call that reaches no safepoint until it returns. */
        public void copy() {
            System.arraycopy(from, 0, to, 0, from.length);
        }
    }

    /** Asks for a safepoint every few milliseconds, until interrupted. */
    public static void askForSafepoints() {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(5);
            } catch (final InterruptedException e) {
                return;
            }
            threads.findDeadlockedThreads();
        }
    }
}
