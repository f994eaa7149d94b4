package io.mech.probes.falsesharing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TurnTakingTest {

    @TempDir
    Path tasks;

    private void task(final String id, final long ran, final long waited) throws IOException {
        Files.createDirectories(tasks.resolve(id));
        Files.writeString(tasks.resolve(id).resolve("schedstat"), ran + " " + waited + " 7\n");
    }

    @Test
    void threadsThatWaitedAsLongAsTheyRanAreSaidToHaveTakenTurns() throws IOException {
        task("100", 1_000, 0);
        task("101", 5_000, 200);
        task("102", 9_000, 9_000);
        final TurnTaking turns = new TurnTaking(tasks);
        turns.begin();
        task("100", 3_000_000, 6_000_000);
        task("101", 2_005_000, 4_000_200);
        Files.delete(tasks.resolve("102").resolve("schedstat"));
        Files.delete(tasks.resolve("102"));
        task("103", 50_000_000, 50_000_000);
        turns.end();
        assertEquals(5_000_000 - 1_000, turns.ranNanos(), "only tasks that lived through the burst count");
        assertEquals(10_000_000, turns.waitedNanos());
        final String phrase = turns.phrase();
        assertNotNull(phrase);
        assertTrue(phrase.contains("waited for a CPU 2.0 ms for every ms they ran"), phrase);
    }

    @Test
    void threadsThatRanMoreThanTheyWaitedLeaveNothingToSay() throws IOException {
        task("100", 0, 0);
        final TurnTaking turns = new TurnTaking(tasks);
        turns.begin();
        task("100", 3_000_000, 2_999_999);
        turns.end();
        assertNull(turns.phrase());
    }

    @Test
    void noReadableTasksJudgeNothing() {
        final TurnTaking turns = new TurnTaking(tasks.resolve("absent"));
        turns.begin();
        turns.end();
        assertEquals(0, turns.ranNanos());
        assertNull(turns.phrase());
    }

    @Test
    void thisProcessHasFiguresWhereTheKernelKeepsThem() {
        final Path self = Path.of("/proc/thread-self/schedstat");
        final long[] figures = TurnTaking.parse(self);
        if (Files.isReadable(self)) {
            assertNotNull(figures, "a readable schedstat parses");
            assertTrue(figures[0] > 0, "this thread has run");
        } else {
            assertNull(figures);
        }
    }
}
