package io.mech.probes.queues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Utilisation above 100% is a bug wherever it shows: a depth read above a bound (the issue's
 * JCTools queue showed {@code depth 64/1 (6400%)}) is taken as the bound in the samples, the
 * figures, the alerts and the report's lines; an unknown or absent bound shows no utilisation.
 */
class UtilisationBoundTest {

    private static final long SECOND = 1_000_000_000L;
    private static final Pattern PERCENT = Pattern.compile("\\((\\d+)%\\)");

    private static QueueStats stats(final long depth, final long capacity) {
        return new QueueStats("queue", "t", "t", "app.Main.run:1", depth, false, depth, depth, capacity,
            100, 100 - depth, 1, 1, 0, Double.NaN, 10, -1, "", 0, 1);
    }

    private static void assertNoPercentAbove100(final List<String> lines) {
        for (final String line : lines) {
            final Matcher m = PERCENT.matcher(line);
            while (m.find()) {
                assertTrue(Integer.parseInt(m.group(1)) <= 100, line);
            }
        }
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
    void theFiguresTheAlertsAndTheReportNeverShowMoreThan100Percent() {
        final QueueStats over = stats(64, 1);
        assertEquals(1, over.depth());
        assertEquals(1, over.maxDepth());
        assertEquals(0, over.remaining());
        assertEquals(1.0, over.utilisation());
        final QueueAlert alert = new QueueAlert(0, "queue", "t", "app.Main.run:1", "full", 64, 1, 64.0, 0, 1, 1);
        assertEquals(1.0, alert.utilisation());
        assertEquals(1, alert.depth());
        final QueueSnapshot snapshot = new QueueSnapshot(true, SECOND, List.of(over, stats(4096, 4096), stats(7, 0)),
            List.of(stats(900, 10)), List.of(alert), 0, 0, 0, 0);
        final List<String> lines = snapshot.render(10);
        assertNoPercentAbove100(lines);
        assertTrue(lines.stream().anyMatch(l -> l.contains("depth 1/1 (100%)")), lines::toString);
        assertTrue(lines.stream().anyMatch(l -> l.contains("full, depth 1/1 (100%)")), lines::toString);
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
        final List<String> lines = new QueueSnapshot(true, SECOND, List.of(unknown, unbounded), List.of(), List.of(),
            0, 0, 0, 0).render(10);
        assertTrue(lines.get(1).contains("depth 64, capacity unknown") && lines.get(2).contains("depth 64, unbounded"),
            lines::toString);
        assertFalse(String.join("\n", lines).contains("%"), lines::toString);
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
