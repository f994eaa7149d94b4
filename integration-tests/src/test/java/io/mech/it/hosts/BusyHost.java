package io.mech.it.hosts;

/** A host application that keeps threads busy on the CPU for a while, stops them, and exits normally. */
public final class BusyHost {

    private static volatile boolean stop;
    /** Written by every busy thread, so that the loop is not optimised away. */
    private static volatile long sink;

    private BusyHost() {
    }

    /**
     * Spins.
     *
     * @param args how many busy threads, then for how many milliseconds
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final Thread[] busy = new Thread[Integer.parseInt(args[0])];
        for (int i = 0; i < busy.length; i++) {
            busy[i] = new Thread(() -> {
                long x = 0;
                while (!stop) {
                    x += System.nanoTime();
                }
                sink = x;
            }, "busy-" + i);
            busy[i].start();
        }
        Thread.sleep(Long.parseLong(args[1]));
        stop = true;
        for (final Thread thread : busy) {
            thread.join();
        }
        System.out.println("host done");
    }
}
