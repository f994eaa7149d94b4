package io.mech.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A host whose mech endpoint the scrape bench loads, with a given number of parked threads
 * besides its own. On each {@code mark} line on stdin it prints its resident set, collects
 * garbage and prints its live heap and the bytes mech's meter thread has allocated, so the bench
 * can tell whether any grows under load.
 */
public final class ScrapedHost {

    private ScrapedHost() {
    }

    /**
     * Answers marks until stdin closes.
     *
     * @param args how many parked threads to start, 0 when absent
     * @throws Exception when stdin cannot be read
     */
    public static void main(final String[] args) throws Exception {
        final int parked = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        for (int i = 0; i < parked; i++) {
            final Thread thread = new Thread(() -> {
                while (true) {
                    LockSupport.park();
                }
            }, "parked-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        long meter = -1;
        String line;
        while ((line = in.readLine()) != null) {
            if (line.equals("mark")) {
                if (meter < 0) {
                    meter = meterThread(threads);
                }
                final long allocated = threads.getThreadAllocatedBytes(meter);
                // read before the collection, which may give memory back to the OS
                final long rss = residentKib();
                System.gc();
                final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                System.out.println("heap_bytes=" + heap + " meter_allocated_bytes=" + allocated + " rss_bytes=" + rss * 1024);
                System.out.flush();
            }
        }
    }

    /** The resident set from {@code /proc/self/status}, in KiB; 0 where there is none. */
    private static long residentKib() throws IOException {
        final Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return 0;
        }
        for (final String line : Files.readAllLines(status, StandardCharsets.US_ASCII)) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return 0;
    }

    /** Found by name through ThreadInfo without stacks: listing stack traces would make the meter allocate. */
    private static long meterThread(final com.sun.management.ThreadMXBean threads) {
        for (final ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), 0)) {
            if (info != null && info.getThreadName().equals("mech-hiccup-meter")) {
                return info.getThreadId();
            }
        }
        throw new IllegalStateException("no mech-hiccup-meter thread: is mech attached?");
    }
}
