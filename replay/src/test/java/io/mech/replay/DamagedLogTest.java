package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Damaged input: each case gets its exit code and a {@code file:line:} message, never a stack trace. */
class DamagedLogTest {

    @TempDir
    Path dir;

    private List<String> mechLines() throws Exception {
        return new ArrayList<>(Arrays.asList(new String(TestLogs.bytes(TestLogs.MECH), StandardCharsets.US_ASCII).split("\n")));
    }

    private Path write(final String name, final List<String> lines, final boolean finalNewline) throws Exception {
        final Path file = dir.resolve(name);
        Files.writeString(file, String.join("\n", lines) + (finalNewline ? "\n" : ""), StandardCharsets.US_ASCII);
        return file;
    }

    private static void assertNoStackTrace(final Outcome outcome) {
        assertFalse(outcome.err().contains("\tat ") || outcome.err().contains("Exception"), outcome.err());
    }

    @Test
    void garbageInTheMiddleNamesItsLine() throws Exception {
        final List<String> lines = mechLines();
        lines.add(9, "this is not an interval");
        final Path file = write("garbage.hlog", lines, true);
        final Outcome outcome = Outcome.replay(file.toString());
        assertEquals(1, outcome.code());
        assertTrue(outcome.err().contains(file + ":10: start time stamp is not a number"), outcome.err());
        assertEquals("", outcome.out());
        assertNoStackTrace(outcome);
    }

    @Test
    void lenientSkipsAndCountsDamagedLines() throws Exception {
        final List<String> lines = mechLines();
        lines.add(9, "this is not an interval");
        lines.add(20, "1,2");
        final Path file = write("garbage.hlog", lines, true);
        final Outcome outcome = Outcome.replay("--lenient", file.toString());
        assertEquals(0, outcome.code(), outcome.err());
        assertTrue(outcome.out().contains("2 damaged lines skipped"), outcome.out());
        assertTrue(outcome.err().contains(file + ":10:") && outcome.err().contains(file + ":21:"), outcome.err());
        assertTrue(outcome.out().contains(" " + (TestLogs.INTERVALS) + " "), outcome.out());
    }

    @Test
    void corruptPayloadNamesItsLine() throws Exception {
        final List<String> lines = mechLines();
        final String line = lines.get(7);
        final int at = line.length() - 20;
        lines.set(7, line.substring(0, at) + (line.charAt(at) == 'A' ? 'B' : 'A') + line.substring(at + 1));
        final Path file = write("corrupt.hlog", lines, true);
        final Outcome outcome = Outcome.replay(file.toString());
        assertEquals(1, outcome.code());
        assertTrue(outcome.err().contains(file + ":8: histogram payload"), outcome.err());
        assertNoStackTrace(outcome);
    }

    @Test
    void truncatedLastLineIsAWarning() throws Exception {
        final List<String> lines = mechLines();
        final String last = lines.remove(lines.size() - 1);
        lines.add(last.substring(0, last.length() / 2));
        final Path file = write("killed.hlog", lines, false);
        final Outcome outcome = Outcome.replay(file.toString());
        assertEquals(0, outcome.code(), outcome.err());
        assertTrue(outcome.err().contains(file + ":" + lines.size() + ": last line is incomplete"), outcome.err());
        assertTrue(outcome.out().contains("incomplete last line ignored"), outcome.out());
        assertTrue(outcome.out().contains(" " + (TestLogs.INTERVALS - 1) + " "), outcome.out());
        assertNoStackTrace(outcome);
    }

    @Test
    void emptyLogIsAPlainMessage() throws Exception {
        final Path file = dir.resolve("empty.hlog");
        Files.write(file, new byte[0]);
        final Outcome outcome = Outcome.replay(file.toString());
        assertEquals(1, outcome.code());
        assertTrue(outcome.err().contains(file + ":1: empty log"), outcome.err());
        assertNoStackTrace(outcome);
    }

    @Test
    void headerOnlyLogIsAPlainMessage() throws Exception {
        final Path file = write("header.hlog", mechLines().subList(0, 4), true);
        final Outcome outcome = Outcome.replay(file.toString());
        assertEquals(1, outcome.code());
        assertTrue(outcome.err().contains(file + ":4: no interval lines"), outcome.err());
        assertNoStackTrace(outcome);
    }

    @Test
    void missingFileIsAPlainMessage() {
        final Path file = dir.resolve("absent.hlog");
        final Outcome outcome = Outcome.replay(file.toString());
        assertEquals(1, outcome.code());
        assertTrue(outcome.err().contains(file + ": no such file"), outcome.err());
        assertNoStackTrace(outcome);
    }

    @Test
    void badOptionsAreUsageErrors() {
        for (final String[] args : new String[][] {{}, {"--nope", "x.hlog"}, {"--start"}, {"--format", "xml", "x.hlog"},
            {"--tag", "a b", "x.hlog"}, {"--tag", "a", "--all-tags", "x.hlog"}, {"--start", "20s", "--end", "10s", "x.hlog"},
            {"--start", "20", "x.hlog"}, {"--stall", "10", "x.hlog"},
            {"--correct", "fast", "x.hlog"}, {"-", "-"}}) {
            final Outcome outcome = Outcome.replay(args);
            assertEquals(2, outcome.code(), String.join(" ", args));
            assertTrue(outcome.err().startsWith("mech replay: ") && outcome.err().endsWith("; java -jar mech.jar replay --help\n"),
                outcome.err());
            assertEquals(1, outcome.err().lines().count(), "one line, not the whole help: " + outcome.err());
        }
    }

    @Test
    void helpIsOnStandardOutput() {
        final Outcome outcome = Outcome.replay("--help");
        assertEquals(0, outcome.code());
        assertTrue(outcome.out().contains("--openmetrics"), outcome.out());
    }
}
