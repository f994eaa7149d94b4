package io.mech.it.hosts;

import java.util.ArrayList;
import java.util.List;
import jdk.jfr.FlightRecorder;

/**
 * A host that collects a live set of some 200 MB in full, a given number of times spread over
 * its run, and says at the end whether anything in it started JFR: the lean configuration's
 * witness that mech attributed its pauses without a recording.
 */
public final class CollectingHost {

    /** What the host prints last, followed by true or false. */
    public static final String JFR_STARTED = "jfr initialized: ";

    private CollectingHost() {
    }

    /**
     * Runs the host.
     *
     * @param args how long to run, in milliseconds, and how many full collections to ask for in that time
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final long runMillis = Long.parseLong(args[0]);
        final int collections = Integer.parseInt(args[1]);
        final List<int[]> live = new ArrayList<>();
        for (int i = 0; i < 2_000_000; i++) {
            live.add(new int[20]);
        }
        final long step = runMillis / (collections + 1);
        for (int i = 0; i < collections; i++) {
            Thread.sleep(step);
            System.gc();
        }
        Thread.sleep(step);
        System.out.println("host done " + live.size());
        // isInitialized does not start JFR, as asking for the recorder would
        System.out.println(JFR_STARTED + FlightRecorder.isInitialized());
    }
}
