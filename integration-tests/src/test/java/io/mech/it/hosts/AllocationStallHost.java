package io.mech.it.hosts;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A host that allocates faster than ZGC frees: it keeps a live set close to its heap (500 MB in
 * 1 MB arrays under {@code -Xmx700m}) and churns short-lived arrays on several threads for a
 * while, so that its threads wait for memory (allocation stalls) outside any safepoint. It stops
 * churning before main returns, so that no stall falls in mech's stop. It churns only once the
 * test says so, by creating a file: under this load JFR took seconds to start on JDK 17, after
 * the stalls were over.
 */
public final class AllocationStallHost {

    private static volatile long sink;

    private AllocationStallHost() {
    }

    /**
     * Runs the host.
     *
     * @param args megabytes kept live, milliseconds of churn, churning threads, the file whose
     *             creation starts the churn
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final int liveMegabytes = Integer.parseInt(args[0]);
        final long churnNanos = Long.parseLong(args[1]) * 1_000_000L;
        final int threads = Integer.parseInt(args[2]);
        final Path go = Path.of(args[3]);
        final List<byte[]> live = new ArrayList<>();
        for (int i = 0; i < liveMegabytes; i++) {
            live.add(new byte[1 << 20]);
        }
        final long giveUp = System.nanoTime() + 60_000_000_000L;
        while (!Files.exists(go)) {
            if (System.nanoTime() > giveUp) {
                throw new IllegalStateException(go + " not created within 60 s");
            }
            Thread.sleep(10);
        }
        final long end = System.nanoTime() + churnNanos;
        final List<Thread> churners = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final Thread churner = new Thread(() -> {
                // A few recent arrays stay reachable, so that the collector has young objects to relocate.
                final byte[][] recent = new byte[64][];
                long allocated = 0;
                for (int i = 0; System.nanoTime() < end; i++) {
                    recent[i & 63] = new byte[64 << 10];
                    allocated += recent[i & 63].length;
                }
                sink += allocated;
            }, "churn-" + t);
            churner.start();
            churners.add(churner);
        }
        for (final Thread churner : churners) {
            churner.join();
        }
        System.out.println("host done: " + live.size() + " MB live, " + sink / (1 << 20) + " MB churned");
    }
}
