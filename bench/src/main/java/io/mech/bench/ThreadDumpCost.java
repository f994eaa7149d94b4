package io.mech.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * What one of the lock sampler's thread dumps (the lock probe without JFR: every thread, 16
 * frames) costs as the host's threads grow: 100, 1,000 and 4,000 threads parked 30 frames deep,
 * 21 dumps each, the median and range of each call. Run it with {@code -Xlog:safepoint} to see
 * the part spent at the safepoint ({@code ThreadDump} lines, "Total").
 *
 * <p>{@code java -Xlog:safepoint -cp bench/target/mech-bench.jar io.mech.bench.ThreadDumpCost}
 */
public final class ThreadDumpCost {

    private static final int DEPTH = 16;
    private static final int DUMPS = 21;

    private ThreadDumpCost() {
    }

    private static void parkedAt(final int frames) {
        if (frames == 0) {
            LockSupport.park();
        } else {
            parkedAt(frames - 1);
        }
    }

    /**
     * Measures and prints.
     *
     * @param args none
     * @throws InterruptedException never: the main thread is not interrupted
     */
    public static void main(final String[] args) throws InterruptedException {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int started = 0;
        for (final int count : new int[] {100, 1_000, 4_000}) {
            for (; started < count; started++) {
                final Thread parked = new Thread(() -> parkedAt(30), "parked-" + started);
                parked.setDaemon(true);
                parked.start();
            }
            while (threads.getThreadCount() < count) {
                Thread.onSpinWait();
            }
            final long[] nanos = new long[DUMPS];
            for (int i = 0; i < DUMPS; i++) {
                final long start = System.nanoTime();
                threads.dumpAllThreads(false, false, DEPTH);
                nanos[i] = System.nanoTime() - start;
            }
            Arrays.sort(nanos);
            System.out.printf("%,d threads: a dump takes %.2f ms (median; %.2f to %.2f), %.1f%% of a 100 ms period%n",
                count, nanos[DUMPS / 2] / 1e6, nanos[0] / 1e6, nanos[DUMPS - 1] / 1e6, nanos[DUMPS / 2] / 1e6);
        }
    }
}
