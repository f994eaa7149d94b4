package io.mech.probes.locks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The sampler's dumps stop the host for at most a hundredth of its time: cheap dumps leave the
 * sampler's own period in charge, dumps of 5 ms hold the next off for 500 ms, one dump made slow
 * by waiting for a core does not, nor the first, which runs cold, and each sample stands for the time since the last dump began,
 * so blocked time is not undercounted.
 */
class DumpSpacingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long PERIOD = 100 * MS;

    /** Dumps each taking the given time, one per period, from t; returns when the last began. */
    private static long dumps(final DumpSpacing spacing, final long t, final long... took) {
        long at = t;
        for (final long d : took) {
            assertTrue(spacing.due(at), "due at " + at / MS + " ms");
            spacing.dumped(at, at + d);
            at += PERIOD;
        }
        return at - PERIOD;
    }

    @Test
    void slowDumpsHoldTheNextOffForAHundredTimesTheirLength() {
        final DumpSpacing spacing = new DumpSpacing(PERIOD);
        final long t0 = 1_000 * MS;
        assertTrue(spacing.due(t0), "the first dump is due at once");
        assertEquals(PERIOD, spacing.dumped(t0, t0 + MS / 10), "the first sample stands for one period");
        final long last = dumps(spacing, t0 + PERIOD, 5 * MS, 5 * MS, 5 * MS);

        assertFalse(spacing.due(last + PERIOD), "dumps of 5 ms hold the next off");
        assertFalse(spacing.due(last + 499 * MS), "for 500 ms");
        final long next = last + 500 * MS;
        assertTrue(spacing.due(next));
        assertEquals(500 * MS, spacing.dumped(next, next + MS), "the sample after the wait stands for all of it");
    }

    @Test
    void oneDumpMadeSlowByWaitingForACoreHoldsNothingOff() {
        final DumpSpacing spacing = new DumpSpacing(PERIOD);
        final long last = dumps(spacing, 0, MS / 2, MS / 2, 20 * MS);
        assertTrue(spacing.due(last + PERIOD), "the 0.5 ms dumps before it are the cost");
    }

    @Test
    void theFirstDumpWhichRunsColdHoldsNothingOff() {
        final DumpSpacing spacing = new DumpSpacing(PERIOD);
        final long t0 = 1_000 * MS;
        assertEquals(PERIOD, spacing.dumped(t0, t0 + 40 * MS), "the first sample stands for one period");
        assertTrue(spacing.due(t0 + PERIOD), "a cold first dump of 40 ms does not hold the next off for 4 s");
        final long last = dumps(spacing, t0 + PERIOD, MS / 2, MS / 2, MS / 2);
        assertTrue(spacing.due(last + PERIOD), "warm dumps of 0.5 ms are the cost");
    }

    @Test
    void spacingHoldsAcrossTheNanoTimeWrap() {
        final DumpSpacing spacing = new DumpSpacing(PERIOD);
        final long last = Long.MAX_VALUE - 50 * MS;
        dumps(spacing, last - 3 * PERIOD, MS / 2, 2 * MS, 2 * MS, 2 * MS);
        assertFalse(spacing.due(last + PERIOD), "100 ms later, past the wrap, still held off");
        assertTrue(spacing.due(last + 200 * MS));
    }
}
