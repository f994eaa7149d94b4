package io.mech.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenFilesTest {

    private static com.sun.management.UnixOperatingSystemMXBean jdk() {
        Assumptions.assumeTrue(ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean,
            "no Unix descriptor count on this platform");
        return (com.sun.management.UnixOperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    }

    @Test
    void theKernelsCountFollowsFilesOpenedAndClosed(@TempDir final Path dir) throws IOException {
        final OpenFiles openFiles = new OpenFiles(jdk());
        Assumptions.assumeTrue(openFiles.kernelCounts(), "this kernel does not count descriptors (Linux before 6.2)");
        final long before = openFiles.count();
        final List<RandomAccessFile> opened = new ArrayList<>();
        try {
            for (int i = 0; i < 40; i++) {
                opened.add(new RandomAccessFile(Files.createFile(dir.resolve("f" + i)).toFile(), "r"));
            }
            final long during = openFiles.count();
            // other threads of the test JVM may open or close a descriptor meanwhile
            assertTrue(Math.abs(during - before - 40) <= 2, "40 files opened: " + before + " -> " + during);
        } finally {
            for (final RandomAccessFile file : opened) {
                file.close();
            }
        }
        assertTrue(Math.abs(openFiles.count() - before) <= 2, "closed again: " + before + " -> " + openFiles.count());
    }

    @Test
    void theKernelsCountIsTheJdksListing() {
        final com.sun.management.UnixOperatingSystemMXBean jdk = jdk();
        final OpenFiles openFiles = new OpenFiles(jdk);
        Assumptions.assumeTrue(openFiles.kernelCounts(), "this kernel does not count descriptors (Linux before 6.2)");
        final long kernel = openFiles.count();
        final long listed = jdk.getOpenFileDescriptorCount();
        assertTrue(Math.abs(kernel - listed) <= 2, "kernel " + kernel + ", JDK's listing " + listed);
    }

    @Test
    void withoutAnyCountItIsMinusOne() {
        final OpenFiles openFiles = new OpenFiles(null);
        if (openFiles.kernelCounts()) {
            assertTrue(openFiles.count() > 0);
        } else {
            assertEquals(-1, openFiles.count());
        }
    }
}
