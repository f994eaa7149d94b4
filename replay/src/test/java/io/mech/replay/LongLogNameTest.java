package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log whose path is longer than the log column's 24 characters keeps the text tables' columns in line. */
class LongLogNameTest {

    @TempDir
    Path dir;

    @Test
    void columnsStayInLineWhateverThePath() throws Exception {
        final Path deep = Files.createDirectories(dir.resolve("a-directory-with-a-long-name/and-another-one"));
        final Path log = TestLogs.copy(TestLogs.MECH, deep);
        assertTrue(log.toString().length() > 40, log.toString());
        final Outcome outcome = Outcome.replay(log.toString());
        assertEquals(0, outcome.code(), outcome.err());
        final List<String> lines = outcome.out().lines().toList();
        for (final String table : List.of("#[Summary", "#[Worst intervals")) {
            final int at = indexOf(lines, table);
            final String header = lines.get(at + 1);
            final String row = lines.get(at + 2);
            assertTrue(row.contains(log.getFileName().toString()), row);
            assertEquals(header.length(), row.length(), table + ": the row's right-aligned columns end where the header's do\n"
                + header + "\n" + row);
        }
    }

    private static int indexOf(final List<String> lines, final String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new AssertionError("no " + prefix + " table");
    }
}
