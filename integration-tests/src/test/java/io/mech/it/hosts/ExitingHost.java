package io.mech.it.hosts;

/**
 * A short-lived host: it runs for the given milliseconds, prints the wall-clock time at which it
 * ends, and ends either by {@code System.exit} with the given code or by returning from main.
 */
public final class ExitingHost {

    /** The line before the time the host ends at, in epoch milliseconds. */
    public static final String ENDING = "ending at ";

    private ExitingHost() {
    }

    /**
     * Runs, then ends.
     *
     * @param args milliseconds to run, then {@code exit <code>} or {@code return}
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final long millis = Long.parseLong(args[0]);
        if (millis > 0) {
            Thread.sleep(millis);
        }
        System.out.println(ENDING + System.currentTimeMillis());
        System.out.flush();
        if (args[1].equals("exit")) {
            System.exit(Integer.parseInt(args[2]));
        }
    }
}
