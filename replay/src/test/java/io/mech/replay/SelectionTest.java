package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What replay says when a selection is empty or a duration has no unit, what {@code --list-tags}
 * lists, and that {@code -o} writes the {@code .hgrm} HistogramLogProcessor writes, taking its
 * option spellings.
 */
class SelectionTest {

    @TempDir
    Path dir;

    @Test
    void anUnknownTagIsOneLineNamingTheTagsTheLogHas() throws Exception {
        final Path log = TestLogs.copy(TestLogs.TAGGED, dir);
        final Outcome outcome = Outcome.replay("--tag", "nosuch", log.toString());
        assertEquals(3, outcome.code(), outcome.err());
        assertEquals("", outcome.out());
        final List<String> lines = outcome.err().lines().toList();
        assertEquals(1, lines.size(), outcome.err());
        assertTrue(lines.get(0).startsWith("mech replay: no interval selected by --tag nosuch: the logs hold untagged lines and "
            + "tags gc, io, starting from 0.000 to "), lines.get(0));
    }

    @Test
    void tagFiltersTheCauseTableToo() throws Exception {
        final Path log = TestLogs.copy(TestLogs.TAGGED, dir);
        final String every = Outcome.replay("--format", "json", log.toString()).out();
        assertTrue(every.contains("{\"cause\":\"gc\"") && every.contains("{\"cause\":\"io\""), every);
        final Outcome gc = Outcome.replay("--tag", "gc", log.toString());
        assertEquals(0, gc.code(), gc.err());
        final List<String> table = gc.out().lines().dropWhile(l -> !l.startsWith("#[Stall time by cause")).toList();
        assertTrue(table.get(0).startsWith("#[Stall time by cause, gc only (--tag), "), gc.out());
        assertEquals(List.of("gc"), table.subList(2, table.size()).stream().takeWhile(l -> !l.isBlank() && !l.startsWith("#"))
            .map(l -> l.split("\\s+")[0]).toList(), gc.out());
        final String json = Outcome.replay("--tag", "gc", "--format", "json", log.toString()).out();
        assertTrue(json.contains("{\"cause\":\"gc\""), json);
        assertFalse(json.contains("{\"cause\":\"io\""), json);
    }

    @Test
    void aWindowPastTheLogIsOneLineGivingTheLogsSpan() throws Exception {
        final Path log = TestLogs.copy(TestLogs.MECH, dir);
        final Outcome outcome = Outcome.replay("--start", "500s", log.toString());
        assertEquals(3, outcome.code(), outcome.err());
        assertEquals(1, outcome.err().lines().count(), outcome.err());
        assertTrue(outcome.err().matches("(?s)mech replay: no interval selected by --start 500.0 s: the logs hold untagged lines, "
            + "starting from 0\\.\\d{3} to " + (TestLogs.INTERVALS - 1) + "\\.\\d{3} s after the first log's start\n"), outcome.err());
    }

    @Test
    void aDurationWithoutAUnitIsAUsageError() {
        final Outcome outcome = Outcome.replay("--stall", "2", "any.hlog");
        assertEquals(2, outcome.code());
        assertEquals("mech replay: --stall: a duration needs a unit, ns, us, ms, s, m or h, such as 2ms or 2s; got '2'; "
            + "java -jar mech.jar replay --help\n",
            outcome.err());
    }

    @Test
    void theWindowTakesDurationsWithAnyUnitAndHistogramLogProcessorsBareSeconds() throws Exception {
        final Path log = TestLogs.copy(TestLogs.MECH, dir);
        final String minutes = Outcome.replay("--start", "0.5m", "--end", "1m", log.toString()).out();
        assertTrue(minutes.contains("Total count"), minutes);
        assertEquals(Outcome.replay("--start", "30000ms", "--end", "60s", log.toString()).out(), minutes);
        assertEquals(Outcome.replay("-start", "30", "-end", "60", log.toString()).out(), minutes);
        final Outcome bare = Outcome.replay("--start", "30", log.toString());
        assertEquals(2, bare.code());
        assertEquals("mech replay: --start needs a unit, such as 30s (ns, us, ms, s, m or h), or an ISO-8601 time with offset; got '30';"
            + " java -jar mech.jar replay --help\n", bare.err());
    }

    @Test
    void listTagsCountsTheLinesOfEachTag() throws Exception {
        final Path log = TestLogs.copy(TestLogs.TAGGED, dir);
        final Outcome outcome = Outcome.replay("--list-tags", log.toString());
        assertEquals(0, outcome.code(), outcome.err());
        final List<String> lines = outcome.out().lines().toList();
        assertEquals("lines  tag", lines.get(0));
        assertEquals(List.of("(untagged)", "gc", "io"), lines.subList(1, lines.size()).stream().map(l -> l.trim().split("\\s+", 2)[1]).toList(),
            outcome.out());
        final long total = lines.subList(1, lines.size()).stream().mapToLong(l -> Long.parseLong(l.trim().split("\\s+")[0])).sum();
        final long intervalLines = Files.readAllLines(log, StandardCharsets.US_ASCII).stream()
            .filter(l -> l.startsWith("Tag=") || !l.isEmpty() && Character.isDigit(l.charAt(0))).count();
        assertEquals(intervalLines, total, outcome.out());
        assertEquals(0, Outcome.replay("-listtags", log.toString()).code(), "HistogramLogProcessor's spelling");
    }

    @Test
    void outputPrefixWritesTheHgrmHistogramLogProcessorWrites() throws Exception {
        final Path log = TestLogs.copy(TestLogs.MECH, dir);
        final String prefix = dir.resolve("ours").toString();
        final Outcome outcome = Outcome.replay("-i", log.toString(), "-o", prefix, "-start", "30", "-end", "90");
        assertEquals(0, outcome.code(), outcome.err());
        final String ours = Files.readString(Path.of(prefix + ".hgrm"), StandardCharsets.UTF_8);
        assertTrue(ours.lines().count() > 20, ours);
        assertEquals(HistogramLogProcessorRun.hgrm(log, dir, "-start", "30", "-end", "90"), ours);
    }
}
