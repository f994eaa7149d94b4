package io.mech.it.hosts;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A host at its heap limit: it fills its heap once mech has started and woven,
 * and keeps it full for a while, catching every {@code OutOfMemoryError} and allocating again, as
 * a server that sheds requests under memory pressure does; then it lets go of it all, asks mech's
 * /metrics until it answers (30 s at most), says what it got, and lives on a little.
 */
public final class FullHeapHost {

    /** What the host prints once it has let go of its heap and asked /metrics, then the HTTP status or {@code none}. */
    public static final String METRICS_AFTER = "metrics after pressure: ";

    /** Chunks small enough that the last of the heap fills too. */
    private static final int CHUNK = 1 << 10;
    private static final long METRICS_BOUND_NANOS = 30_000_000_000L;

    private FullHeapHost() {
    }

    /**
     * Runs the host.
     *
     * @param args milliseconds of pressure, once mech has started (30 s at most), and milliseconds
     *             to live on after /metrics answered
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        // mech has started, and its weaving, which retransforms classes on threads of its own, is done:
        // under a heap that fills during a retransformation the JDK's instrument library crashed the VM
        final long deadline = System.nanoTime() + METRICS_BOUND_NANOS;
        while ((System.getProperty("io.mech.started") == null || weaving()) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        final long pressure = Long.parseLong(args[0]);
        List<long[]> held = new ArrayList<>();
        long errors = 0;
        final long until = System.nanoTime() + pressure * 1_000_000L;
        while (System.nanoTime() < until) {
            try {
                held.add(new long[CHUNK]);
            } catch (final OutOfMemoryError full) {
                errors++;
                // shed a little and try again, as a server under pressure does
                for (int i = 0; i < 4 && !held.isEmpty(); i++) {
                    held.remove(held.size() - 1);
                }
                // not Thread.sleep, which allocates on JDK 21 and later and would end main here
                LockSupport.parkNanos(1_000_000);
            }
        }
        final int size = held.size();
        held = null;
        System.gc();
        System.out.println("held " + size + " chunks, " + errors + " out-of-memory errors");
        System.out.println(METRICS_AFTER + metricsStatus());
        Thread.sleep(Long.parseLong(args[1]));
        System.out.println("host done");
    }

    private static boolean weaving() {
        for (final Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().endsWith("-install") && thread.getName().startsWith("mech-")) {
                return true;
            }
        }
        return false;
    }

    /** Asks /metrics at the address mech publishes until it answers 200 with mech's hiccups, 30 s at most. */
    private static String metricsStatus() throws InterruptedException {
        final long deadline = System.nanoTime() + METRICS_BOUND_NANOS;
        String last = "none";
        while (System.nanoTime() < deadline) {
            final String address = System.getProperty("io.mech.metrics");
            if (address != null) {
                try {
                    final HttpURLConnection connection = (HttpURLConnection) new URL(address).openConnection();
                    connection.setConnectTimeout(2_000);
                    connection.setReadTimeout(5_000);
                    final int status = connection.getResponseCode();
                    try (InputStream body = status == 200 ? connection.getInputStream() : connection.getErrorStream()) {
                        final String text = body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8);
                        last = Integer.toString(status);
                        if (status == 200 && text.contains("mech_hiccup")) {
                            return last;
                        }
                    }
                } catch (final IOException refused) {
                    last = refused.toString();
                }
            }
            Thread.sleep(100);
        }
        return last;
    }
}
