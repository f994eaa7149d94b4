package io.mech.it.hosts;

/** A host application that does nothing for the given milliseconds and exits normally. */
public final class SleepingHost {

    private SleepingHost() {
    }

    /**
     * Sleeps.
     *
     * @param args milliseconds to sleep
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        Thread.sleep(Long.parseLong(args[0]));
        System.out.println("host done");
    }
}
