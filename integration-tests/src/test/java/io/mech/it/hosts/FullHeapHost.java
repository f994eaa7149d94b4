package io.mech.it.hosts;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;

/**
 * A host at its heap limit: it fills its heap and keeps it full for a while, catching every
 * {@code OutOfMemoryError} and allocating again, as a server that sheds requests under memory
 * pressure does; then it lets go of it all, uses JDK classes a host commonly uses (java.time,
 * the formatter, regular expressions) and says whether they work, asks mech's /metrics until it
 * answers (30 s at most), says what it got, and lives on a little. It fills its heap either once
 * mech has started and woven ({@link #ONCE_STARTED}), or from main's first line
 * ({@link #FROM_START}), in bursts that hold the heap full for 1.5 s and let go of it for 0.3 s,
 * while mech is still starting.
 */
public final class FullHeapHost {

    /** What the host prints once it has let go of its heap and asked /metrics, then the HTTP status or {@code none}. */
    public static final String METRICS_AFTER = "metrics after pressure: ";

    /** What the host prints after the pressure, then {@code ok} or the error its JDK classes met. */
    public static final String JDK_CLASSES_AFTER = "jdk classes after pressure: ";
    /** What the host prints after the pressure, then the milliseconds its collectors said they took during it. */
    public static final String GC_DURING = "gc ms during pressure: ";
    /** First argument: fill the heap once mech has started. */
    public static final String ONCE_STARTED = "once-started";
    /** First argument: fill the heap in bursts from main's first line. */
    public static final String FROM_START = "from-start";

    private static final long BURST_NANOS = 1_500_000_000L;
    private static final long BREATH_NANOS = 300_000_000L;
    /** Chunks small enough that the last of the heap fills too. */
    private static final int CHUNK = 1 << 10;
    private static final long METRICS_BOUND_NANOS = 30_000_000_000L;

    /** Main's alone. */
    private static int mostHeld;
    private static long errors;

    private FullHeapHost() {
    }

    /**
     * Runs the host.
     *
     * @param args {@link #ONCE_STARTED} or {@link #FROM_START}; milliseconds of pressure (30 s at
     *             most once started); milliseconds to live on after /metrics answered
     * @throws InterruptedException never: nothing interrupts the main thread
     */
    public static void main(final String[] args) throws InterruptedException {
        final boolean fromStart = args[0].equals(FROM_START);
        if (!fromStart) {
            // mech has started, and its weaving, which retransforms classes on threads of its own, is done:
            // under a heap that fills during a retransformation the JDK's instrument library crashed the VM
            final long deadline = System.nanoTime() + METRICS_BOUND_NANOS;
            while ((System.getProperty("io.mech.started") == null || weaving()) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }
        final long gcBefore = collectionMillis();
        final long until = System.nanoTime() + Long.parseLong(args[1]) * 1_000_000L;
        while (System.nanoTime() < until) {
            fill(fromStart ? Math.min(until, System.nanoTime() + BURST_NANOS) : until);
            if (fromStart) {
                LockSupport.parkNanos(BREATH_NANOS);
            }
        }
        final long gcDuring = collectionMillis() - gcBefore;
        System.gc();
        System.out.println("held " + mostHeld + " chunks, " + errors + " out-of-memory errors");
        System.out.println(GC_DURING + gcDuring);
        System.out.println(JDK_CLASSES_AFTER + jdkClasses());
        System.out.println(METRICS_AFTER + metricsStatus());
        Thread.sleep(Long.parseLong(args[2]));
        System.out.println("host done");
    }

    /**
     * Fills the heap and keeps it full until a time, then lets go of it: what it held is garbage
     * once it returns, and it returns nothing, which would have to be allocated in a full heap.
     */
    private static void fill(final long until) {
        final List<long[]> held = new ArrayList<>();
        while (System.nanoTime() < until) {
            try {
                held.add(new long[CHUNK]);
                mostHeld = Math.max(mostHeld, held.size());
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
    }

    /**
     * Uses JDK classes mech's start uses too: a class whose initialisation met a full heap on
     * mech's thread would fail here, for the JVM's life.
     *
     * @return {@code ok}, or the error met
     */
    private static String jdkClasses() {
        try {
            final String now = LocalDateTime.now().toString() + ZoneId.systemDefault() + ZoneOffset.UTC
                + Instant.now() + TimeZone.getDefault().getID();
            final String formatted = String.format(Locale.ROOT, "%08.3f %s", 1.5, now);
            return Pattern.compile("\\d+\\.\\d+").matcher(formatted).find() ? "ok" : "no match in " + formatted;
        } catch (final LinkageError | RuntimeException e) {
            return e.toString();
        }
    }

    /** The collectors' time so far, by their beans: the collections' pauses, as the host itself can tell them. */
    private static long collectionMillis() {
        long sum = 0;
        for (final GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
            sum += Math.max(0, collector.getCollectionTime());
        }
        return sum;
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
