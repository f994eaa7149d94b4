package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.report.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet, more logs than are drawn one by one, merged in one pass: the rows are HdrHistogram's
 * own sum of every interval, hosts are ranked, and directories, globs and control logs are found.
 */
class FleetMergeTest {

    private static final int HOSTS = 24;
    private static final long START = 1_735_689_600_000L;

    @TempDir
    Path dir;

    /** Writes the fleet: distinct seeds and starts; host 5 stalls often, host 17 never. */
    private List<GeneratedLog> fleet(final Path into, final int seconds) throws Exception {
        Files.createDirectories(into);
        final List<GeneratedLog> logs = new ArrayList<>();
        for (int i = 0; i < HOSTS; i++) {
            final int stallEvery = i == 5 ? 3 : i == 17 ? Integer.MAX_VALUE : 40;
            // One host writes two significant digits: a fleet of mixed writers merges into the first one's shape.
            logs.add(new GeneratedLog(into.resolve(String.format("host-%02d.hlog", i)), 1000 + i, START + i * 7_000L, seconds,
                i == 9 ? 2 : 3, stallEvery, i % 2 == 0));
        }
        return logs;
    }

    @Test
    void fleetRowsAreHdrHistogramsSumOfEveryInterval() throws Exception {
        final List<GeneratedLog> logs = fleet(dir, 300);
        final Histogram expected = new Histogram(logs.get(0).sum);
        expected.setAutoResize(true);
        long intervals = 0;
        for (final GeneratedLog log : logs) {
            expected.add(log.sum);
            intervals += log.intervals;
        }
        final ByteArrayOutputStream rows = new ByteArrayOutputStream();
        expected.outputPercentileDistribution(new PrintStream(rows, true, StandardCharsets.UTF_8), 5, 1e6);

        final Outcome outcome = Outcome.replay(dir.toString());
        assertEquals(0, outcome.code(), outcome.err());
        final List<String> theirs = Outcome.distribution(rows.toString(StandardCharsets.UTF_8));
        assertTrue(theirs.size() > 20, theirs.toString());
        assertEquals(theirs, Outcome.distribution(outcome.out()));
        assertTrue(outcome.out().matches("(?s).*\nall +" + intervals + " +" + expected.getTotalCount() + " .*"), outcome.out());
        assertFalse(outcome.out().contains("host-00.hlog"), "a fleet without --per-file lists no host:\n" + outcome.out());
    }

    @Test
    void perFileRanksHostsAndShowsTheTenWorstAndTenBest() throws Exception {
        fleet(dir, 120);
        final Outcome outcome = Outcome.replay("--per-file", dir.toString());
        assertEquals(0, outcome.code(), outcome.err());
        final String out = outcome.out();
        assertFalse(out.contains("#[Percentile distribution of"), "no distribution per host in a fleet:\n" + out);
        final Matcher row = Pattern.compile("(?m)^ +(\\d+) (\\S+host-(\\d\\d)\\.hlog) ").matcher(out);
        final List<Integer> ranks = new ArrayList<>();
        final List<String> hosts = new ArrayList<>();
        while (row.find()) {
            ranks.add(Integer.parseInt(row.group(1)));
            hosts.add(row.group(3));
        }
        assertEquals(2 * HostRanking.SHOWN, ranks.size(), out);
        assertEquals(1, ranks.get(0));
        assertEquals(HOSTS, ranks.get(ranks.size() - 1));
        assertEquals("05", hosts.get(0), "the host that stalls most ranks worst:\n" + out);
        assertTrue(out.contains("... " + (HOSTS - 2 * HostRanking.SHOWN) + " hosts between"), out);
    }

    @Test
    void causesSumEveryTaggedIntervalsMax() throws Exception {
        final GeneratedLog log = new GeneratedLog(dir.resolve("one.hlog"), 7, START, 600, 3, 5, true);
        final Outcome outcome = Outcome.replay(dir.resolve("one.hlog").toString());
        assertEquals(0, outcome.code(), outcome.err());
        long total = 0;
        for (final long nanos : log.causeNanos) {
            total += nanos;
        }
        assertTrue(total > 0, "the log has no stall");
        for (int c = 0; c < GeneratedLog.CAUSES.length; c++) {
            final String row = "(?s).*\n" + GeneratedLog.CAUSES[c] + " +\\d+ +" + Pattern.quote(Values.value(log.causeNanos[c], 1e6))
                + " +" + Pattern.quote(Values.share(log.causeNanos[c], total)) + " .*";
            assertTrue(outcome.out().matches(row), row + "\n" + outcome.out());
        }
    }

    @Test
    void theVirtualThreadMetersLinesAreNoCauseAndReadWithItsTag() throws Exception {
        final Path file = dir.resolve("virtual.hlog");
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.US_ASCII)) {
            final HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputStartTime(START);
            w.setBaseTime(START);
            w.outputLegend();
            final Histogram platform = new Histogram(3);
            platform.recordValue(50_000);
            platform.setStartTimeStamp(START);
            platform.setEndTimeStamp(START + 1000);
            w.outputIntervalHistogram(platform);
            final Histogram virtual = new Histogram(3);
            virtual.recordValue(80_000_000);
            virtual.setStartTimeStamp(START);
            virtual.setEndTimeStamp(START + 1000);
            virtual.setTag("virtual");
            w.outputIntervalHistogram(virtual);
        }
        final Outcome all = Outcome.replay(file.toString());
        assertEquals(0, all.code(), all.err());
        assertFalse(all.out().contains("\nvirtual "), "the virtual meter is not a cause:\n" + all.out());
        final Outcome tagged = Outcome.replay("--tag", "virtual", file.toString());
        assertEquals(0, tagged.code(), tagged.err());
        assertTrue(tagged.out().contains("80.0"), "--tag virtual reads the meter's 80 ms:\n" + tagged.out());
        assertTrue(tagged.out().contains("\n#[Stall time by cause: none shown, --tag virtual selects lines that are no cause's]\n"),
            tagged.out());
    }

    @Test
    void directoriesGlobsAndControlLogsAreFound() throws Exception {
        final Path top = dir.resolve("logs");
        final Path sub = top.resolve("rack-2");
        Files.createDirectories(sub);
        new GeneratedLog(top.resolve("a.hlog"), 1, START, 60, 3, 10, false);
        new GeneratedLog(sub.resolve("b.hlog"), 2, START, 60, 3, 10, false);
        new GeneratedLog(top.resolve("a.hlog.c"), 3, START, 60, 3, 2, false);
        Files.writeString(top.resolve("notes.txt"), "not a log\n");

        final Outcome flat = Outcome.replay("--format", "json", top.toString());
        assertEquals(0, flat.code(), flat.err());
        assertEquals(60L, mergedIntervals(flat.out()));
        assertTrue(flat.out().contains("\"control_logs\":[" + Json.quote(top.resolve("a.hlog.c").toString()) + "]"), flat.out());

        final Outcome recursive = Outcome.replay("--format", "json", "--recursive", top.toString());
        assertEquals(0, recursive.code(), recursive.err());
        assertEquals(120L, mergedIntervals(recursive.out()));

        final Outcome glob = Outcome.replay("--format", "json", top + "/*/*.hlog");
        assertEquals(0, glob.code(), glob.err());
        assertEquals(60L, mergedIntervals(glob.out()));
        assertFalse(glob.out().contains("a.hlog"), glob.out());

        final Outcome named = Outcome.replay("--format", "json", top.resolve("a.hlog").toString(), top.resolve("a.hlog.c").toString());
        assertEquals(flat.out(), named.out(), "a control log named beside its host is its control, not a second host");

        final Path empty = Files.createDirectories(dir.resolve("empty"));
        final Outcome none = Outcome.replay(empty.toString());
        assertEquals(1, none.code());
        assertTrue(none.err().contains(empty + ": no *.hlog or *.hlog.gz file"), none.err());
        final Outcome unmatched = Outcome.replay(top + "/*.nothing");
        assertEquals(1, unmatched.code());
        assertTrue(unmatched.err().contains("no file matches"), unmatched.err());
    }

    /** The merged (or only) view's interval count from a JSON report: the last of its views. */
    private static long mergedIntervals(final String json) {
        final Matcher view = Pattern.compile("\\{\"log\":\"[^\"]*\",\"intervals\":(\\d+)").matcher(json);
        long intervals = -1;
        while (view.find()) {
            intervals = Long.parseLong(view.group(1));
        }
        return intervals;
    }
}
