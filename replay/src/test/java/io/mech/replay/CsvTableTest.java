package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --csv-table}: one table whose rows all have the header's width, the same rows the whole CSV report holds. */
class CsvTableTest {

    private static final long START = 1_735_689_600_000L;

    @TempDir
    Path dir;

    @Test
    void eachTableIsOneWidthAndTheWholeReportsRows() throws Exception {
        final Path log = dir.resolve("a.hlog");
        new GeneratedLog(log, 1, START, 120, 3, 5, true);
        new GeneratedLog(dir.resolve("a.hlog.c"), 2, START, 120, 3, 10, false);
        final String whole = Outcome.replay("--format", "csv", "--intervals", log.toString()).out();
        for (final String table : List.of("summary", "worst", "causes", "control", "intervals")) {
            final Outcome one = Outcome.replay("--csv-table", table, log.toString());
            assertEquals(0, one.code(), one.err());
            final List<String> lines = one.out().lines().toList();
            assertTrue(lines.size() >= 2, table + ": a header and a row at least\n" + one.out());
            final int width = fields(lines.get(0));
            for (final String line : lines) {
                assertEquals(width, fields(line), table + ": " + line);
            }
            assertTrue(whole.contains("\n\n" + one.out()) || whole.endsWith("\n\n" + one.out()),
                table + " is one of the whole report's tables:\n" + one.out());
        }
        final List<String> causes = Outcome.replay("--csv-table", "causes", log.toString()).out().lines().skip(1).toList();
        assertEquals(List.of(GeneratedLog.CAUSES).stream().sorted().toList(),
            causes.stream().map(l -> l.substring(1, l.indexOf('"', 1))).sorted().toList(), "every cause the log has, once");
        final String control = Outcome.replay("--csv-table", "control", log.toString()).out().lines().skip(1).findFirst().orElseThrow();
        assertTrue(control.startsWith("\"" + dir.resolve("a.hlog.c") + "\",120,"), control);
        assertEquals(Outcome.csvDistribution(whole), Outcome.csvDistribution(Outcome.replay("--csv-table", "distribution", log.toString()).out()));
    }

    @Test
    void anUnknownTableOrJsonIsAUsageError() {
        final Outcome unknown = Outcome.replay("--csv-table", "nosuch", "any.hlog");
        assertEquals(2, unknown.code());
        assertEquals("mech replay: --csv-table takes distribution, summary, worst, causes, control, hosts, intervals or moving, "
            + "got 'nosuch'; java -jar mech.jar replay --help\n", unknown.err());
        assertEquals(2, Outcome.replay("--csv-table", "causes", "--format", "json", "any.hlog").code());
        assertEquals(2, Outcome.replay("--csv-table", "moving", "any.hlog").code());
    }

    private static int fields(final String line) {
        int fields = 1;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            final char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                fields++;
            }
        }
        return fields;
    }
}
