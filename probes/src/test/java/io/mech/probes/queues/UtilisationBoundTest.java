package io.mech.probes.queues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Utilisation above 100% is a bug wherever it shows: a depth read above a bound (the issue's
 * JCTools queue showed {@code depth 64/1 (6400%)}) is taken as the bound in the samples, the
 * figures and the alerts (the report's lines: the agent's QueueLinesTest); an unknown or absent
 * bound shows no utilisation.
 */
class UtilisationBoundTest {

    private static final long SECOND = 1_000_000_000L;

    private static QueueStats stats(final long depth, final long capacity) {
        return new QueueStats("queue", "t", "t", "app.Main.run:1", depth, false, depth, depth, capacity,
            100, 100 - depth, 1, 1, 0, Double.NaN, 10, -1, "", 0, 1);
    }

    @Test
    void aSampleAboveTheBoundIsTheBound() {
        final TrackedQueue q = new TrackedQueue(new Object(), "t", "s", Shape.PROGRESS, 0, SECOND);
        for (int i = 0; i < 3; i++) {
            q.sample(i * SECOND, 1, 64, false, 0, 64);
        }
        assertEquals(1, q.depth);
        assertEquals(1, q.maxDepth);
        assertEquals(1.0, q.utilisation());
        assertEquals("full", q.judge(0.7, 10_000, 1), "full it is, at 100%");
    }

    @Test
    void theFiguresAndTheAlertsNeverShowMoreThan100Percent() {
        final QueueStats over = stats(64, 1);
        assertEquals(1, over.depth());
        assertEquals(1, over.maxDepth());
        assertEquals(0, over.remaining());
        assertEquals(1.0, over.utilisation());
        final QueueAlert alert = new QueueAlert(0, "queue", "t", "app.Main.run:1", "full", 64, 1, 64.0, 0, 1, 1);
        assertEquals(1.0, alert.utilisation());
        assertEquals(1, alert.depth());
    }

    @Test
    void anUnknownOrAbsentBoundShowsNoUtilisation() {
        final QueueStats unknown = stats(64, QueueStats.UNKNOWN);
        final QueueStats unbounded = stats(64, QueueStats.UNBOUNDED);
        assertTrue(Double.isNaN(unknown.utilisation()));
        assertTrue(Double.isNaN(unbounded.utilisation()));
        assertEquals(-1, unknown.remaining());
        assertEquals("unknown", unknown.bound());
        assertEquals("unbounded", unbounded.bound());
    }

    @Test
    void aQueueWhoseBoundIsUnknownIsNeverFull() {
        final TrackedQueue q = new TrackedQueue(new Object(), "t", "s", Shape.COUNTED, 0, SECOND);
        String reason = null;
        for (int i = 0; i < 5 && reason == null; i++) {
            q.sample(i * SECOND, QueueStats.UNKNOWN, 64, false, 0, 64);
            reason = q.judge(0.7, 10_000, 3);
        }
        assertEquals(null, reason, "64 deep, not growing, bound unknown: no alert");
    }
}
