package io.mech.probes.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sampler's dumps stop the host for at most a hundredth of its time: a cheap dump leaves
 * the sampler's own period in charge, a dump of 5 ms holds the next one off for 500 ms, and each
 * sample stands for the time since the last dump began, so blocked time is not undercounted.
 */
class DumpSpacingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void aDumpHoldsTheNextOffForAHundredTimesItsLength() {
        final DumpSpacing spacing = new DumpSpacing(100 * MS);
        final long t0 = 1_000 * MS;
        assertTrue(spacing.due(t0), "the first dump is due at once");
        assertEquals(100 * MS, spacing.dumped(t0, t0 + MS / 10), "the first sample stands for one period");

        final long t1 = t0 + 100 * MS;
        assertTrue(spacing.due(t1), "a dump of 0.1 ms leaves the period in charge");
        assertEquals(100 * MS, spacing.dumped(t1, t1 + 5 * MS));

        assertFalse(spacing.due(t1 + 100 * MS), "a dump of 5 ms holds the next off");
        assertFalse(spacing.due(t1 + 499 * MS), "for 500 ms");
        final long t2 = t1 + 500 * MS;
        assertTrue(spacing.due(t2));
        assertEquals(500 * MS, spacing.dumped(t2, t2 + MS), "the sample after the wait stands for all of it");
    }

    @Test
    void spacingHoldsAcrossTheNanoTimeWrap() {
        final DumpSpacing spacing = new DumpSpacing(100 * MS);
        final long start = Long.MAX_VALUE - 50 * MS;
        spacing.dumped(start, start + 2 * MS);
        assertFalse(spacing.due(start + 100 * MS), "100 ms later, past the wrap, still held off");
        assertTrue(spacing.due(start + 200 * MS));
    }
}
