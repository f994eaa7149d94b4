package io.mech.agent.queues;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.probes.queues.QueueAlert;
import io.mech.probes.queues.QueueSnapshot;
import io.mech.probes.queues.QueueStats;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The queue section's lines: a utilisation over 100% never shows (the JCTools queue once
 * read {@code depth 64/1 (6400%)}), and an unknown or absent bound shows none at all.
 */
class QueueLinesTest {

    private static final long SECOND = 1_000_000_000L;
    private static final Pattern PERCENT = Pattern.compile("\\((\\d+)%\\)");

    private static QueueStats stats(final long depth, final long capacity) {
        return new QueueStats("queue", "t", "t", "app.Main.run:1", depth, false, depth, depth, capacity,
            100, 100 - depth, 1, 1, 0, Double.NaN, 10, -1, "", 0, 1);
    }

    @Test
    void noLineShowsMoreThan100Percent() {
        final QueueAlert alert = new QueueAlert(0, "queue", "t", "app.Main.run:1", "full", 64, 1, 64.0, 0, 1, 1);
        final QueueSnapshot snapshot = new QueueSnapshot(true, SECOND, List.of(stats(64, 1), stats(4096, 4096), stats(7, 0)),
            List.of(stats(900, 10)), List.of(alert), 0, 0, 0, 0, 0);
        final List<String> lines = QueueLines.of(snapshot, 10);
        for (final String line : lines) {
            final Matcher m = PERCENT.matcher(line);
            while (m.find()) {
                assertTrue(Integer.parseInt(m.group(1)) <= 100, line);
            }
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("depth 1/1 (100%)")), lines::toString);
        assertTrue(lines.stream().anyMatch(l -> l.contains("full, depth 1/1 (100%)")), lines::toString);
        assertEquals("back pressure: queue t at app.Main.run:1 full, depth 1/1 (100%)", QueueLines.describe(alert));
    }

    @Test
    void anUnknownOrAbsentBoundShowsNoUtilisation() {
        final List<String> lines = QueueLines.of(new QueueSnapshot(true, SECOND,
            List.of(stats(64, QueueStats.UNKNOWN), stats(64, QueueStats.UNBOUNDED)), List.of(), List.of(), 0, 0, 0, 0, 0), 10);
        assertTrue(lines.get(1).contains("depth 64, capacity unknown") && lines.get(2).contains("depth 64, unbounded"),
            lines::toString);
        assertFalse(String.join("\n", lines).contains("%"), lines::toString);
    }

    @Test
    void queuesMadeAtOneSiteSayWhichTheyAre() {
        final List<String> lines = QueueLines.of(new QueueSnapshot(true, SECOND, List.of(stats(1, 10)),
            List.of(stats(2, 10), stats(3, 10)), List.of(), 0, 0, 0, 0, 0), 10);
        assertTrue(lines.get(1).startsWith("  t at app.Main.run:1: depth 1/10"), lines::toString);
        assertTrue(lines.get(2).startsWith("  collected: t at app.Main.run:1 (1 of 2 made there): depth 2/10"), lines::toString);
        assertTrue(lines.get(3).startsWith("  collected: t at app.Main.run:1 (2 of 2 made there): depth 3/10"), lines::toString);
    }

    @Test
    void aProbeThatDidNotInstallSaysSo() {
        assertEquals(List.of("queues: not installed"),
            QueueLines.of(new QueueSnapshot(false, SECOND, List.of(), List.of(), List.of(), 0, 0, 0, 0, 0), 10));
    }
}
