package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The meter allocates nothing, counters read and stalls handed over included: a meter that
 * allocates can be stalled for memory under ZGC, where no counter sees it. (It calls no
 * {@code Thread.sleep}, which from JDK 21 on builds an event object whenever a recording has
 * {@code jdk.ThreadSleep} on; no recording is started here, as it would make this JVM's JFR
 * repository, which JfrRepositoryTest needs absent.)
 */
class MeterAllocationTest {

    private static final long MS = 1_000_000L;

    @Test
    void theMeterAllocatesNothingWhileItMeasures() throws InterruptedException {
        final ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        // a 1 us stall threshold: most rounds are stalls, so the hand-over runs as often as the rounds
        final HiccupRecorder recorder = HiccupRecorder.start(new HiccupSettings(MS, 100 * MS, 0, 1_000, null), VmCounters.open(),
            w -> { });
        try {
            final long meter = recorder.meterThreadId();
            Thread.sleep(1_000);
            final long before = threads.getThreadAllocatedBytes(meter);
            final long stallsBefore = recorder.snapshot().stalls();
            Thread.sleep(2_000);
            final long allocated = threads.getThreadAllocatedBytes(meter) - before;
            final long rounds = recorder.snapshot().stalls() - stallsBefore;
            assertTrue(rounds > 100, "the meter handed stalls over: " + rounds);
            // The smallest object is 16 bytes: an allocation per round would be kilobytes a second.
            assertTrue(allocated < 512, allocated + " bytes allocated by the meter over " + rounds + " stalls in 2 s");
        } finally {
            recorder.close();
        }
    }
}
