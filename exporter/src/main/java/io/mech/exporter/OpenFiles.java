package io.mech.exporter;

import java.io.File;

/**
 * The process' open file descriptors, as the kernel counts them where it says: since Linux 6.2 the
 * size of {@code /proc/self/fd} is that count, one {@code stat} call. The JDK's
 * {@code getOpenFileDescriptorCount} lists the directory instead, and the kernel makes an entry
 * for every descriptor it lists: 4.5% of a fresh host's scrape CPU with some 50 descriptors
 * (async-profiler, scrapes 20 to 120), and in proportion to the descriptors beyond. Where the
 * directory's size is 0 (an older kernel) or there is none, the JDK's count is used.
 *
 * <p>Immutable after construction; any thread may call.
 */
final class OpenFiles {

    private final File descriptors = new File("/proc/self/fd");
    private final com.sun.management.UnixOperatingSystemMXBean unix;
    private final boolean kernelCounts;

    /** @param unix the JDK's count, null where the platform has none */
    OpenFiles(final com.sun.management.UnixOperatingSystemMXBean unix) {
        this.unix = unix;
        // a live JVM holds open descriptors (its jars, its standard streams): a size of 0 means the kernel does not count
        this.kernelCounts = descriptors.length() > 0;
    }

    /** Whether the count comes from the kernel's one figure rather than from listing the directory. */
    boolean kernelCounts() {
        return kernelCounts;
    }

    /** @return the open descriptors now, or -1 where neither the kernel nor the JDK counts them */
    long count() {
        if (kernelCounts) {
            final long size = descriptors.length();
            if (size > 0) {
                return size;
            }
        }
        return unix == null ? -1 : unix.getOpenFileDescriptorCount();
    }
}
