package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
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

    @Test
    void aBufferThatIsNotPerformanceDataIsRefused() {
        assertNull(VmCounters.parse(ByteBuffer.allocate(64)));
        assertNull(VmCounters.parse(ByteBuffer.allocate(8)));
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
