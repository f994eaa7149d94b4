package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code allocation-stall} lines mech writes once JFR records: every thread's waits for memory
 * are summed beside the causes, never among them, and a log without them reads as it always did.
 */
class AllocationStallReplayTest {

    private static final long START = 1_735_689_600_000L;
    private static final long MS = 1_000_000L;

    /** The stalls of each interval of {@link #log}. */
    private static final long[][] STALLS = {{3 * MS, 5 * MS}, {}, {12 * MS}};

    @TempDir
    Path dir;

    /** HdrHistogram's own figures for all the stalls: the total as its mean times the count, and the max. */
    private static Histogram allStalls() {
        final Histogram h = new Histogram(86_400_000_000_000L, 3);
        for (final long[] interval : STALLS) {
            for (final long stall : interval) {
                h.recordValue(stall);
            }
        }
        return h;
    }

    private static long total(final Histogram h) {
        return Math.round(h.getMean() * h.getTotalCount());
    }

    /**
     * Three one-second intervals, as mech writes them: the untagged hiccups, a gc line, and when
     * asked an allocation-stall line: 3 and 5 ms in the first, none in the second, 12 ms in the third.
     */
    private Path log(final String name, final boolean allocationStalls) throws Exception {
        final Path file = dir.resolve(name);
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.US_ASCII)) {
            final HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputLogFormatVersion();
            w.outputStartTime(START);
            w.setBaseTime(START);
            w.outputBaseTime(START);
            w.outputLegend();
            for (int i = 0; i < STALLS.length; i++) {
                final Histogram hiccups = histogram(null, i);
                for (int s = 0; s < 900; s++) {
                    hiccups.recordValue(60_000 + s * 10L);
                }
                hiccups.recordValueWithExpectedInterval(4 * MS, MS);
                w.outputIntervalHistogram(hiccups);
                final Histogram gc = histogram("gc", i);
                gc.recordValueWithExpectedInterval(4 * MS, MS);
                w.outputIntervalHistogram(gc);
                if (allocationStalls) {
                    final Histogram memory = histogram(StallCauses.ALLOCATION_STALL, i);
                    for (final long stall : STALLS[i]) {
                        memory.recordValue(stall);
                    }
                    w.outputIntervalHistogram(memory);
                }
            }
        }
        return file;
    }

    private static Histogram histogram(final String tag, final int interval) {
        final Histogram h = new Histogram(86_400_000_000_000L, 3);
        h.setTag(tag);
        h.setStartTimeStamp(START + interval * 1000L);
        h.setEndTimeStamp(START + (interval + 1) * 1000L);
        return h;
    }

    @Test
    void theTextSaysHowManyHowLongAndThatTheyAreNoCause() throws Exception {
        final Outcome outcome = Outcome.replay(log("a.hlog", true).toString());
        assertEquals(0, outcome.code(), outcome.err());
        final String line = allocationStallLine(outcome.out());
        final Histogram all = allStalls();
        assertTrue(line.contains(": 3 stalls in 2 of 3 intervals, total " + Values.value(total(all), 1e6) + " ms, longest "
            + Values.value(all.getMaxValue(), 1e6) + " ms"), line);
        assertTrue(Math.abs(total(all) - 20 * MS) < 20 * MS / 1000, "within the histograms' precision of 20 ms: " + total(all));
        assertTrue(line.contains("threads' waits for memory") && line.contains("not the meter's stalls"), line);
        assertFalse(outcome.out().contains("\nallocation-stall "), "not a row of the cause table:\n" + outcome.out());
        assertTrue(outcome.out().matches("(?s).*\ngc +3 +\\S+ +100\\.0% .*"), "gc keeps the whole share:\n" + outcome.out());
    }

    @Test
    void theJsonHasThemApart() throws Exception {
        final Outcome outcome = Outcome.replay("--format", "json", log("a.hlog", true).toString());
        assertEquals(0, outcome.code(), outcome.err());
        final Histogram all = allStalls();
        assertTrue(outcome.out().contains("\"allocation_stalls\":{\"intervals\":3,\"stalled_intervals\":2,\"stalls\":3,"
            + "\"stall_time\":" + total(all) / 1e6 + ",\"longest\":" + all.getMaxValue() / 1e6 + "}"), outcome.out());
        assertFalse(outcome.out().contains("\"cause\":\"allocation-stall\""), outcome.out());
    }

    @Test
    void linesWithNoStallSayNone() throws Exception {
        final Outcome outcome = Outcome.replay("--start", "1s", "--end", "1.5s", log("a.hlog", true).toString());
        assertEquals(0, outcome.code(), outcome.err());
        assertTrue(allocationStallLine(outcome.out()).contains(": none in 1 intervals;"), outcome.out());
    }

    @Test
    void tagSelectsTheStallsAsTheDistribution() throws Exception {
        final Outcome outcome = Outcome.replay("--tag", StallCauses.ALLOCATION_STALL, log("a.hlog", true).toString());
        assertEquals(0, outcome.code(), outcome.err());
        assertTrue(outcome.out().matches("(?s).*\n\\S+ +3 +3 .* 12\\.0\\d* .*"), "3 intervals, 3 values, max 12 ms:\n" + outcome.out());
    }

    @Test
    void aLogWithoutThemReadsAsBeforeInTextAndJson() throws Exception {
        final Path with = log("a.hlog", true);
        final Path without = log("b.hlog", false);
        final Outcome text = Outcome.replay(without.toString());
        assertEquals(0, text.code(), text.err());
        assertFalse(text.out().contains("llocation"), text.out());
        // The same log with them differs by the one line, and the log's name in the summary.
        final List<String> others = new ArrayList<>(List.of(Outcome.replay(with.toString()).out().split("\n", -1)));
        assertTrue(others.remove(allocationStallLine(String.join("\n", others))));
        assertEquals(text.out(), String.join("\n", others).replace("a.hlog", "b.hlog"));
        final Outcome json = Outcome.replay("--format", "json", without.toString());
        assertFalse(json.out().contains("allocation"), json.out());
    }

    @Test
    void hdrHistogramsOwnProcessorReadsTheLog() throws Exception {
        final Path with = log("a.hlog", true);
        final String theirs = HistogramLogProcessorRun.hgrm(with, dir);
        assertEquals(Outcome.distribution(theirs), Outcome.distribution(Outcome.replay(with.toString()).out()));
        final String tagged = HistogramLogProcessorRun.hgrm(with, dir, "-tag", StallCauses.ALLOCATION_STALL);
        assertTrue(tagged.contains("#[Max     =       12.00"), "its -tag reads the stalls:\n" + tagged);
    }

    private static String allocationStallLine(final String out) {
        for (final String line : out.split("\n")) {
            if (line.startsWith("#[Allocation stalls")) {
                return line;
            }
        }
        throw new AssertionError("no allocation-stall line:\n" + out);
    }
}
