package io.mech.it.hosts;

/** The {@code app.jar} of the README's commands: it works for two seconds and exits normally. */
public final class ReadmeApp {

    private ReadmeApp() {
    }

    /**
     * Spins and sleeps in turn for two seconds, so that the recorder has intervals to log.
     *
     * @param args unused
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final long end = System.nanoTime() + 2_000_000_000L;
        long spins = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 100_000; i++) {
                spins++;
            }
            Thread.sleep(10);
        }
        System.out.println("app done after " + spins + " spins");
    }
}
