package io.mech.it.hosts;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A host application that looks, from inside, at what mech set up once its start-up thread
 * ({@code mech-start}) has ended: the address mech published in {@code io.mech.metrics}, and
 * whether anything accepts connections on a port.
 */
public final class MetricsPortHost {

    private static final long START_BOUND_NANOS = 20_000_000_000L;

    private MetricsPortHost() {
    }

    /**
     * Prints {@code metrics: <io.mech.metrics or none>} and {@code port <p>: open|closed}, or
     * {@code mech still starting} when mech-start outlives the bound.
     *
     * @param args the port to try on 127.0.0.1
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final long deadline = System.nanoTime() + START_BOUND_NANOS;
        while (mechStarting()) {
            if (System.nanoTime() > deadline) {
                System.out.println("mech still starting");
                return;
            }
            Thread.sleep(10);
        }
        final int port = Integer.parseInt(args[0]);
        System.out.println("metrics: " + System.getProperty("io.mech.metrics", "none"));
        boolean open;
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            open = true;
        } catch (final IOException refused) {
            open = false;
        }
        System.out.println("port " + port + ": " + (open ? "open" : "closed"));
    }

    private static boolean mechStarting() {
        for (final Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("mech-start")) {
                return true;
            }
        }
        return false;
    }
}
