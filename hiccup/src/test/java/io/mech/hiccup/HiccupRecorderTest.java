package io.mech.hiccup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HiccupRecorderTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    private static List<EncodableHistogram> intervals(final Path log) throws Exception {
        final HistogramLogReader reader = new HistogramLogReader(log.toFile());
        final List<EncodableHistogram> all = new ArrayList<>();
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            all.add(h);
        }
        return all;
    }

    @Test
    void stallQueueHoldsTwoSecondsOfBackToBackStalls() {
        // a stall takes a round and at least the threshold: 1 ms + 2 ms a stall, 667 in 2 s
        assertEquals(1024, HiccupRecorder.stallQueueCapacity(new HiccupSettings(MS, 1_000 * MS, 0, 2 * MS, null)));
        assertEquals(256, HiccupRecorder.stallQueueCapacity(new HiccupSettings(MS, 1_000 * MS, 0, 100 * MS, null)));
        // 1 us rounds and threshold: a million a second, more than the largest ring
        assertEquals(4096, HiccupRecorder.stallQueueCapacity(new HiccupSettings(1_000, 1_000 * MS, 0, 1_000, null)));
        // 2 s / 4 ms = 500 exactly, and the ring also holds the 501st
        assertEquals(512, HiccupRecorder.stallQueueCapacity(new HiccupSettings(2 * MS, 1_000 * MS, 0, 2 * MS, null)));
    }

    @Test
    void logsContiguousIntervalsAndTheLastPartialOneAtClose() throws Exception {
        final Path log = dir.resolve("h.hlog");
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 100 * MS, 0, 2 * MS, log), warnings::add);
        awaitIntervals(hiccups, 3);
        hiccups.close();
        hiccups.close();

        final List<EncodableHistogram> intervals = intervals(log);
        assertTrue(intervals.size() >= 3, "intervals: " + intervals.size());
        for (int i = 1; i < intervals.size(); i++) {
            // The log holds seconds to 3 decimals and the reader truncates start + length: 1 ms of slack.
            final long gap = intervals.get(i).getStartTimeStamp() - intervals.get(i - 1).getEndTimeStamp();
            assertTrue(Math.abs(gap) <= 1, "gap of " + gap + " ms before interval " + i);
        }
        final EncodableHistogram last = intervals.get(intervals.size() - 1);
        assertTrue(last.getEndTimeStamp() - last.getStartTimeStamp() < 100, "last interval is partial");
        final HiccupSnapshot fromLog = new LogFollower(log).snapshot();
        assertEquals(hiccups.snapshot().count(), fromLog.count());
        assertEquals(intervals.size(), hiccups.snapshot().intervals());
        assertTrue(fromLog.count() > 100, "a sample per millisecond or so: " + fromLog.count());
        assertEquals(-1, fromLog.stalls(), "a log does not carry stalls");
        assertTrue(hiccups.snapshot().stalls() >= 0);
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void followerReadsOnlyWholeLinesAndKeepsItsPlace() throws Exception {
        final Path log = dir.resolve("f.hlog");
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 50 * MS, 0, 2 * MS, log), warnings::add);
        final LogFollower follower = new LogFollower(log);
        awaitIntervals(hiccups, 1);
        final long early = follower.snapshot().intervals();
        Files.writeString(log, "0.5,0.05,0.1,HISTF", StandardOpenOption.APPEND);
        awaitIntervals(hiccups, early + 2);
        hiccups.close();
        final HiccupSnapshot late = follower.snapshot();
        assertTrue(early >= 1 && late.intervals() > early, early + " then " + late.intervals());
        assertEquals(hiccups.snapshot().intervals(), late.intervals(), "a half-written line is not an interval");
    }

    @Test
    void stallsAreCountedWithoutCorrection() throws Exception {
        final long start = System.nanoTime();
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 50 * MS, 0, 1_000, null), warnings::add);
        awaitIntervals(hiccups, 2);
        hiccups.close();
        final long ran = System.nanoTime() - start;
        final HiccupSnapshot snapshot = hiccups.snapshot();
        assertTrue(snapshot.stalls() > 0, "with a 1us threshold nearly every round is a stall");
        assertTrue(snapshot.stallNanos() < ran, "uncorrected stall time cannot exceed the run's " + ran + " ns: " + snapshot.stallNanos());
    }

    @Test
    void headerCarriesStartAndBaseTimeAfterTheDelay() throws Exception {
        final Path log = dir.resolve("d.hlog");
        final long before = System.currentTimeMillis();
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 100 * MS, 200 * MS, 2 * MS, log), warnings::add);
        awaitIntervals(hiccups, 1);
        hiccups.close();
        final List<String> lines = Files.readAllLines(log);
        assertEquals("#[Histogram log format version 1.3]", lines.get(0));
        assertTrue(lines.get(1).startsWith("#[StartTime: "), lines.get(1));
        assertTrue(lines.get(2).startsWith("#[BaseTime: "), lines.get(2));
        final double start = Double.parseDouble(lines.get(1).substring("#[StartTime: ".length()).split(" ")[0]);
        assertTrue(start * 1000 >= before + 200, "recording before the delay is discarded");
        assertTrue(lines.get(4).startsWith("0.000,"), lines.get(4));
    }

    @Test
    void aCloseOnAnInterruptedThreadStillWritesTheLastInterval() throws Exception {
        final Path log = dir.resolve("i.hlog");
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 10_000 * MS, 0, 2 * MS, log), warnings::add);
        Await.until("the log's first bytes", Duration.ofSeconds(10), () -> log.toFile().length() > 0);
        Thread.currentThread().interrupt();
        hiccups.close();
        assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
        assertEquals(List.of(), warnings, "the log's channel was not closed by the interrupt");
        assertEquals(1, intervals(log).size(), "the partial interval is in the log");
    }

    @Test
    void aMeterStartedBeforeItsLogIsLoggedFromItsOwnStart() throws Exception {
        final Path log = dir.resolve("m.hlog");
        final HiccupRecorder hiccups = HiccupRecorder.startMeter(new HiccupSettings(MS, 50 * MS, 0, 2 * MS, null), null);
        final long started = System.currentTimeMillis();
        // the host's main runs on meanwhile, and mech's start reaches the log later: 120 ms here
        passes(120 * MS);
        hiccups.startLog(log, warnings::add);
        hiccups.startLog(dir.resolve("second.hlog"), warnings::add);
        awaitIntervals(hiccups, 2);
        hiccups.close();
        final List<EncodableHistogram> intervals = intervals(log);
        final EncodableHistogram first = intervals.get(0);
        // the log holds seconds to 3 decimals: 1 ms of slack
        assertTrue(first.getStartTimeStamp() <= started + 1, "the first interval begins with the meter, at "
            + first.getStartTimeStamp() + ", the meter started by " + started);
        assertTrue(first.getEndTimeStamp() - first.getStartTimeStamp() >= 120, "and covers the time before the log: "
            + (first.getEndTimeStamp() - first.getStartTimeStamp()) + " ms");
        assertTrue(new LogFollower(log).snapshot().count() >= 100, "the meter's samples from before the log are logged");
        assertTrue(Files.notExists(dir.resolve("second.hlog")), "the log starts once");
        assertEquals(List.of(), warnings);
    }

    @Test
    void aMeterClosedBeforeItsLogStillHoldsWhatItMeasured() {
        final HiccupRecorder hiccups = HiccupRecorder.startMeter(new HiccupSettings(MS, 1_000 * MS, 0, 2 * MS, null), null);
        passes(60 * MS);
        hiccups.close();
        final HiccupSnapshot measured = hiccups.snapshot();
        assertEquals(1, measured.intervals(), "a host that ended before the log began: one interval, since the meter began");
        assertTrue(measured.count() >= 30, "a sample a millisecond or so: " + measured.count());
    }

    @Test
    void aCloseRightAfterTheLogStartsStillLogsWhatTheMeterMeasured() throws Exception {
        final Path log = dir.resolve("c.hlog");
        final HiccupRecorder hiccups = HiccupRecorder.startMeter(new HiccupSettings(MS, 1_000 * MS, 0, 2 * MS, null), null);
        passes(60 * MS);
        // the host exits as mech's start opens the log: the log thread may not have begun
        hiccups.startLog(log, warnings::add);
        hiccups.close();
        final List<EncodableHistogram> intervals = intervals(log);
        assertEquals(1, intervals.size(), "one interval, since the meter began");
        assertTrue(intervals.get(0).getEndTimeStamp() - intervals.get(0).getStartTimeStamp() >= 60,
            "covering the time before the log: " + (intervals.get(0).getEndTimeStamp() - intervals.get(0).getStartTimeStamp()) + " ms");
        assertEquals(1, hiccups.snapshot().intervals());
        assertEquals(List.of(), warnings);
    }

    /** Lets time pass: what is measured here is the meter over a stretch of time, not something to wait for. */
    private static void passes(final long nanos) {
        final long until = System.nanoTime() + nanos;
        long left;
        while ((left = until - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
        }
    }

    private static void awaitAnInterval(final HiccupRecorder hiccups) throws InterruptedException {
        awaitIntervals(hiccups, 1);
    }

    /** Waits, 10 s at most, until the recorder has closed the given number of intervals. */
    private static void awaitIntervals(final HiccupRecorder hiccups, final long count) throws InterruptedException {
        Await.until(count + " intervals", Duration.ofSeconds(10), () -> hiccups.snapshot().intervals() >= count);
    }

    @Test
    void aSecondRecorderOnOneLogWritesItsOwnBesideIt() throws Exception {
        final Path log = dir.resolve("shared.hlog");
        final HiccupSettings settings = new HiccupSettings(MS, 50 * MS, 0, 2 * MS, log);
        final HiccupRecorder first = HiccupRecorder.start(settings, warnings::add);
        awaitAnInterval(first);
        final HiccupRecorder second = HiccupRecorder.start(settings, warnings::add);
        awaitAnInterval(second);
        second.close();
        first.close();
        final Path own = Path.of(log + "." + ProcessHandle.current().pid());
        assertEquals(List.of("hiccup log " + log + " is being written by another process; this one logs to " + own), warnings);
        assertEquals(own, second.settings().log());
        assertEquals(new LogStatus(own, true, null), second.logStatus());
        assertEquals(log, first.settings().log());
        assertEquals(first.snapshot().intervals(), intervals(log).size(), "the first log is whole: not truncated, not interleaved");
        assertEquals(second.snapshot().intervals(), intervals(own).size());
    }

    @Test
    void missingDirectoryIsReportedOnceAndRecordingGoesOn() throws Exception {
        final Path log = dir.resolve("no/such/dir/h.hlog");
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 50 * MS, 0, 2 * MS, log), warnings::add);
        awaitIntervals(hiccups, 2);
        hiccups.close();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(log.toString()) && warnings.get(0).contains("in memory"), warnings.get(0));
        assertTrue(hiccups.snapshot().count() > 50);
    }

    @Test
    void fullDiskIsReportedOnceAndRecordingGoesOn() throws Exception {
        final Path full = Path.of("/dev/full");
        Assumptions.assumeTrue(Files.isWritable(full), "no writable /dev/full here");
        final HiccupRecorder hiccups = HiccupRecorder.start(new HiccupSettings(MS, 50 * MS, 0, 2 * MS, full), warnings::add);
        awaitIntervals(hiccups, 3);
        hiccups.close();
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("No space left"), warnings.get(0));
        assertTrue(hiccups.snapshot().intervals() >= 3);
    }
}
