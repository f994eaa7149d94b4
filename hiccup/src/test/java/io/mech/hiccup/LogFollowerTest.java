package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogFollowerTest {

    @TempDir
    Path dir;

    private static Histogram interval(final long startMillis, final long value, final int count) {
        final Histogram h = new Histogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS);
        h.recordValueWithCount(value, count);
        h.setStartTimeStamp(startMillis);
        h.setEndTimeStamp(startMillis + 1000);
        return h;
    }

    @Test
    void theSameSnapshotComesBackUntilAnIntervalIsAdded() throws Exception {
        final Path log = dir.resolve("c.hlog");
        try (PrintStream out = new PrintStream(new FileOutputStream(log.toFile()), true)) {
            final HistogramLogWriter writer = new HistogramLogWriter(out);
            writer.outputLogFormatVersion();
            writer.outputStartTime(1_000);
            writer.outputLegend();
            writer.outputIntervalHistogram(interval(1_000, 1_000_000, 3));
            final LogFollower follower = new LogFollower(log);

            final HiccupSnapshot first = follower.snapshot();
            assertEquals(3, first.count());
            assertSame(first, follower.snapshot(), "nothing added: the same snapshot");

            writer.outputIntervalHistogram(interval(2_000, 5_000_000, 2));
            final HiccupSnapshot second = follower.snapshot();
            assertNotSame(first, second);
            assertEquals(5, second.count());
            assertEquals(2, second.intervals());
            assertEquals(3, first.count(), "a snapshot handed out never changes");
            assertSame(second, follower.snapshot());
        }
    }
}
