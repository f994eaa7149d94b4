package io.mech.it.hosts;

import java.util.ArrayList;
import java.util.List;

/**
 * A batch job that ends in a burst of full collections: it builds a live set of some 200 MB,
 * collects it in full three times, the last just before main returns, and exits. Its last
 * pauses meet mech's stop, where causes used to wait for JFR and put them down to the OS.
 */
public final class GcBurstHost {

    private GcBurstHost() {
    }

    /**
     * Runs the job.
     *
     * @param args the longest wait, in milliseconds, for mech to have started everything and its
     *             JFR stream to record: a collection asked for while mech's start reads its jar
     *             (inside a JNI critical region) is dropped by HotSpot for a young one, "GCLocker
     *             Initiated GC", and the burst would lose a full collection
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final List<int[]> live = new ArrayList<>();
        for (int i = 0; i < 2_000_000; i++) {
            live.add(new int[20]);
        }
        final long deadline = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000L;
        while ((System.getProperty("io.mech.started") == null || System.getProperty("io.mech.jfr.since") == null)
            && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        System.out.println("host done " + live.size());
    }
}
