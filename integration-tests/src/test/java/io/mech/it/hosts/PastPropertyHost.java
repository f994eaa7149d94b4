package io.mech.it.hosts;

/**
 * Runs an examples kernel from start-up until a given time after mech has published a system
 * property, then exits with 0: what a test measures then spans a part's run however late a busy
 * machine starts that part, and the kernel's set-up still comes first, as under {@code -jar}. It
 * prints how long it waited for the property, or that it never came.
 */
public final class PastPropertyHost {

    private PastPropertyHost() {
    }

    /**
     * Runs the kernel on a daemon thread, waits, then exits.
     *
     * @param args the property, the longest wait for it in milliseconds, the milliseconds to run
     *             on once it came, then the examples' arguments, whose {@code --seconds} must
     *             outlast both
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final long began = System.nanoTime();
        final String[] kernel = java.util.Arrays.copyOfRange(args, 3, args.length);
        final Thread running = new Thread(() -> io.mech.examples.Main.main(kernel), "kernel");
        running.setDaemon(true);
        running.start();
        final long deadline = began + Long.parseLong(args[1]) * 1_000_000L;
        while (System.getProperty(args[0]) == null && System.nanoTime() < deadline && running.isAlive()) {
            Thread.sleep(10);
        }
        System.out.println(args[0] + (System.getProperty(args[0]) == null ? " never came" : " came")
            + " after " + (System.nanoTime() - began) / 1_000_000 + " ms");
        running.join(Long.parseLong(args[2]));
        System.out.println(running.isAlive() ? "kernel ran on" : "kernel ended first");
        System.exit(0);
    }
}
