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
     * @param args milliseconds to wait before the burst, for mech to be running
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final List<int[]> live = new ArrayList<>();
        for (int i = 0; i < 2_000_000; i++) {
            live.add(new int[20]);
        }
        Thread.sleep(Long.parseLong(args[0]));
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        System.out.println("host done " + live.size());
    }
}
