package io.mech.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.charset.StandardCharsets;

/**
 * A host whose mech endpoint the scrape bench loads. On each {@code mark} line on stdin it
 * collects garbage and prints its live heap and the bytes mech's meter thread has allocated,
 * so the bench can tell whether either grows under load.
 */
public final class ScrapedHost {

    private ScrapedHost() {
    }

    /**
     * Answers marks until stdin closes.
     *
     * @param args ignored
     * @throws Exception when stdin cannot be read
     */
    public static void main(final String[] args) throws Exception {
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
                System.gc();
                final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                System.out.println("heap_bytes=" + heap + " meter_allocated_bytes=" + allocated);
                System.out.flush();
            }
        }
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
