package io.mech.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An idle host for the memory figures: waits, collects, and prints its own peak resident set
 * and live heap, so that the same measurement runs with and without mech.
 */
public final class IdleHost {

    private IdleHost() {
    }

    /**
     * Idles and reports.
     *
     * @param args milliseconds to idle
     * @throws Exception when /proc cannot be read
     */
    public static void main(final String[] args) throws Exception {
        Thread.sleep(Long.parseLong(args[0]));
        System.gc();
        final long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.println("hwm_kib=" + status("VmHWM") + " heap_bytes=" + heap);
    }

    private static long status(final String field) throws IOException {
        for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        throw new IOException(field + " not in /proc/self/status");
    }
}
