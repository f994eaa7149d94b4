package io.mech.probes.queues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The arithmetic of one queue's samples: rates, growth and Little's-law wait over the window. */
class TrackedQueueTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void waitIsMeanDepthOverDequeueRateOnceTheWindowSpansTenSeconds() {
        final TrackedQueue q = new TrackedQueue(new Object(), "t", "s", Shape.ARRAY_BLOCKING, 0, SECOND);
        for (int s = 0; s <= 9; s++) {
            q.sample(s * SECOND, 100, s % 2 == 0 ? 40 : 60, false, 200L * s, -1);
            assertTrue(Double.isNaN(q.waitSeconds), "no estimate before 10 s: " + s);
        }
        q.sample(10 * SECOND, 100, 40, false, 2_000, -1);
        assertEquals(200, q.dequeueRate, 1e-9);
        assertEquals(200, q.enqueueRate, 1e-9, "derived: dequeues plus depth");
        assertEquals((6 * 40 + 5 * 60) / 11.0 / 200, q.waitSeconds, 1e-9, "mean depth of 11 samples over 200/s");
        q.sample(11 * SECOND, 100, 60, false, 2_200, -1);
        assertEquals((6 * 60 + 5 * 40) / 11.0 / 200, q.waitSeconds, 1e-9, "the window slides past the first sample");
    }

    /**
     * A scheduled executor's cancelled tasks leave its queue by remove(), which counts no dequeue:
     * dequeues plus depth fall, and the rates must not.
     */
    @Test
    void removalsThatAreNotDequeuesNeverMakeARateNegative() {
        final TrackedQueue q = new TrackedQueue(new Object(), "t", "s", Shape.COUNTED, 0, SECOND);
        q.sample(0, QueueStats.UNBOUNDED, 30, false, 100, -1);
        q.sample(SECOND, QueueStats.UNBOUNDED, 30, false, 110, -1);
        assertEquals(10, q.enqueueRate, 1e-9);
        for (int s = 2; s <= 4; s++) {
            q.sample(s * SECOND, QueueStats.UNBOUNDED, 30 - 10L * (s - 1), false, 110, -1);
            assertTrue(q.enqueueRate >= 0, "in " + q.enqueueRate + "/s after " + s + " s");
            assertTrue(q.dequeueRate >= 0, "out " + q.dequeueRate + "/s after " + s + " s");
        }
        assertEquals(140, q.enqueued, "derived enqueues keep their highest count");
        assertTrue(q.growthPerSecond < 0, "the depth's fall shows as negative growth: " + q.growthPerSecond);
    }

    @Test
    void noEstimateWhenTheDequeueRateIsAboutZero() {
        final TrackedQueue q = new TrackedQueue(new Object(), "t", "s", Shape.COUNTED, 0, SECOND);
        for (int s = 0; s <= 12; s++) {
            q.sample(s * SECOND, QueueStats.UNKNOWN, 500, false, 5, 505);
        }
        assertEquals(0, q.dequeueRate, 1e-9);
        assertTrue(Double.isNaN(q.waitSeconds));
        assertEquals(0, q.growthPerSecond, 1e-9);
    }

    @Test
    void alertsWhenFullForThreeSamplesAndReArmsBelow() {
        final TrackedQueue q = new TrackedQueue(new Object(), "t", "s", Shape.ARRAY_BLOCKING, 0, SECOND);
        final String[] reasons = new String[6];
        final long[] depths = {7, 8, 9, 10, 3, 7};
        for (int i = 0; i < depths.length; i++) {
            q.sample(i * SECOND, 10, depths[i], false, 0, -1);
            reasons[i] = q.judge(0.7, 10_000, 3);
        }
        assertEquals("[null, null, full, null, null, null]", java.util.Arrays.toString(reasons));
        assertEquals(1, q.alerts);
    }
}
