package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class VmCountersTest {

    @Test
    void aCollectionMovesTheSafepointAndCollectorCounters() {
        final VmCounters counters = VmCounters.open();
        assertNotNull(counters, "this JVM keeps performance data (UsePerfData is on by default)");
        assertFalse(counters.collectors().isEmpty(), counters.toString());
        final long[] before = new long[counters.width()];
        final long[] after = new long[counters.width()];
        counters.read(before, 0);
        System.gc();
        counters.read(after, 0);
        assertTrue(after[VmCounters.SAFEPOINTS] > before[VmCounters.SAFEPOINTS], "a full collection is a safepoint");
        long collected = 0;
        for (int c = VmCounters.FIRST_COLLECTOR; c < counters.width(); c++) {
            collected += after[c] - before[c];
        }
        assertTrue(collected > 0, "some collector's pause time rose: " + counters);
        assertTrue(counters.nanos(after[VmCounters.SAFEPOINT_TICKS] - before[VmCounters.SAFEPOINT_TICKS]) >= counters.nanos(collected),
            "the collection's pause is time at a safepoint");
    }

    /**
     * The stops before a meter are this JVM's whole history so far: after a full collection they
     * count it, its pause is among the time at safepoints, and the JVM began before now.
     */
    @Test
    void theStopsBeforeAMeterCountTheJvmsWholeRun() {
        final VmCounters counters = VmCounters.open();
        assertNotNull(counters, "this JVM keeps performance data (UsePerfData is on by default)");
        final long[] reading = new long[counters.width()];
        final long collections = counters.collections();
        System.gc();
        counters.read(reading, 0);
        final long now = System.currentTimeMillis();
        final UnmeteredStops before = UnmeteredStops.of(counters, reading, now);
        assertTrue(before.collections() > collections, before.toString());
        assertTrue(before.safepoints() >= before.collections(), "every pause of these collectors is a safepoint: " + before);
        assertTrue(before.gcNanos() > 0, before.toString());
        assertEquals(counters.nanos(reading[VmCounters.SAFEPOINT_TICKS]), before.gcNanos() + before.safepointNanos(), before.toString());
        final long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
        assertTrue(Math.abs(before.vmMillis() - uptime) < 1_000, before.vmMillis() + " ms into the JVM, its uptime " + uptime + " ms");
    }

    @Test
    void aBufferThatIsNotPerformanceDataIsRefused() {
        assertNull(VmCounters.parse(ByteBuffer.allocate(64)));
        assertNull(VmCounters.parse(ByteBuffer.allocate(8)));
    }

    /**
     * HotSpot makes its tick frequency after the agents' premain: counters found before it must
     * still open, converting once the frequency is there. Simulated on a copy of this JVM's own
     * performance data, the frequency's name hidden and then shown again.
     */
    @Test
    void countersOpenedBeforeTheTickFrequencyExistsConvertOnceItDoes() throws IOException {
        final Path shared = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(ProcessHandle.current().pid()));
        assumeTrue(Files.isReadable(shared), "no shared performance data file at " + shared);
        final byte[] bytes = Files.readAllBytes(shared);
        final byte[] name = "sun.os.hrt.frequency".getBytes(StandardCharsets.US_ASCII);
        final int at = indexOf(bytes, name);
        assertTrue(at > 0, "the frequency counter is in the data");
        final ByteBuffer data = ByteBuffer.wrap(bytes);
        bytes[at] = 'x';
        final VmCounters counters = VmCounters.parse(data);
        assertNotNull(counters, "opens without the frequency");
        assertEquals(1_000L, counters.nanos(1_000L), "nanosecond ticks until the frequency is known, as HotSpot counts on Linux");
        bytes[at] = 's';
        assertEquals(1_000_000L, counters.nanos(1_000_000L), "converts with the frequency once it is there (1 GHz on Linux)");
    }

    @Test
    void theSharedFileIsTakenOnlyWhenItNamesThisJvm() throws IOException {
        final Path shared = Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(ProcessHandle.current().pid()));
        assumeTrue(Files.isReadable(shared), "no shared performance data file at " + shared);
        assertNotNull(VmCounters.openShared(), "this JVM's own file");
        final VmCounters copy = VmCounters.parse(ByteBuffer.wrap(Files.readAllBytes(shared)));
        assertNotNull(copy);
        assertTrue(copy.namedBy(System.getProperty("sun.java.command")), "it names this JVM's command line");
        // another container's JVM with the same pid, in a /tmp both share
        assertFalse(copy.namedBy("org.example.OtherMain"), "another JVM's command line is not this one");
        assertFalse(copy.namedBy(null), "nor is none");
    }

    private static int indexOf(final byte[] haystack, final byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void readingAllocatesNothing() {
        final VmCounters counters = VmCounters.open();
        assertNotNull(counters);
        final long[] into = new long[counters.width()];
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 100_000; i++) {
            counters.read(into, 0);
        }
        final int reads = 1_000_000;
        final long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < reads; i++) {
            counters.read(into, 0);
        }
        // The smallest object is 16 bytes: a read that allocated would add 16 MB. What the JIT's
        // and the measurement's own bookkeeping add, a few hundred bytes, is not per read.
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < reads / 100, allocated + " bytes over " + reads + " reads");
    }
}
