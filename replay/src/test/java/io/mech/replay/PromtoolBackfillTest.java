package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The OpenMetrics export is backfilled by the real {@code promtool tsdb create-blocks-from openmetrics}. */
class PromtoolBackfillTest {

    private static final long START = 1_735_689_600_000L;

    @TempDir
    Path dir;

    @Test
    void promtoolBackfillsTheExport() throws Exception {
        final Path promtool = DebianPackage.require(Path.of("/usr/bin/promtool"), "prometheus");
        final Path a = TestLogs.copy(TestLogs.MECH, dir);
        final Path b = TestLogs.copy(TestLogs.WRITER, dir);
        final Path om = dir.resolve("replay.om");
        final Outcome outcome = Outcome.replay("--openmetrics", om.toString(), a.toString(), b.toString());
        assertEquals(0, outcome.code(), outcome.err());

        final Path blocks = dir.resolve("blocks");
        final String created = run(List.of(promtool.toString(), "tsdb", "create-blocks-from", "openmetrics", om.toString(),
            blocks.toString()));
        // dump opens the directory as a TSDB, which needs a (here empty) write-ahead log.
        Files.createDirectories(blocks.resolve("wal"));
        final String dump = run(List.of(promtool.toString(), "tsdb", "dump", "--min-time=0", blocks.toString()));
        final long maxSamples = dump.lines().filter(l -> l.contains("mech_hiccup_interval_max_seconds")).count();
        assertEquals(2L * TestLogs.INTERVALS, maxSamples, created);

        // The first interval of mech's log, as HdrHistogram reads it, is a sample of the backfilled series.
        try (HistogramLogReader reader = new HistogramLogReader(a.toFile())) {
            final EncodableHistogram first = reader.nextIntervalHistogram();
            final double expected = ((Histogram) first).getMaxValue() / 1e9;
            final String at = " " + first.getEndTimeStamp();
            final List<String> samples = dump.lines().filter(l -> l.contains("mech_hiccup_interval_max_seconds")
                && l.contains(a.toString()) && l.endsWith(at)).toList();
            assertEquals(1, samples.size(), "no sample at" + at + " in:\n" + dump.lines().limit(5).toList());
            final String[] fields = samples.get(0).split(" ");
            assertEquals(expected, Double.parseDouble(fields[fields.length - 2]));
        }
    }

    /**
     * A log with cause lines backfills the live exporter's cause counters, by cause, counted from
     * the log's start, and the interval gauges carry the live scrape's jvm label.
     */
    @Test
    void causesAndLabelsAreTheLiveScrapes() throws Exception {
        final Path promtool = DebianPackage.require(Path.of("/usr/bin/promtool"), "prometheus");
        final Path log = dir.resolve("host.hlog");
        final GeneratedLog generated = new GeneratedLog(log, 7, START, 120, 3, 4, true);
        final Path om = dir.resolve("causes.om");
        final Outcome outcome = Outcome.replay("--openmetrics", om.toString(), log.toString());
        assertEquals(0, outcome.code(), outcome.err());
        final Path blocks = dir.resolve("blocks");
        run(List.of(promtool.toString(), "tsdb", "create-blocks-from", "openmetrics", om.toString(), blocks.toString()));
        Files.createDirectories(blocks.resolve("wal"));
        final String dump = run(List.of(promtool.toString(), "tsdb", "dump", "--min-time=0", blocks.toString()));
        assertEquals(120, dump.lines().filter(l -> l.startsWith("{__name__=\"mech_hiccup_interval_max_seconds\"")
            && l.contains("jvm=\"host\"") && l.contains("instance=\"" + log + "\"")).count(), "a max per interval, labelled as live");
        for (int cause = 0; cause < GeneratedLog.CAUSES.length; cause++) {
            final String name = GeneratedLog.CAUSES[cause];
            final List<Double> seconds = dump.lines().filter(l -> l.startsWith("{__name__=\"mech_hiccup_cause_seconds_total\"")
                && l.contains("cause=\"" + name + "\"")).map(l -> Double.parseDouble(l.split(" ")[l.split(" ").length - 2])).toList();
            assertEquals(120, seconds.size(), name + ": a sample per interval");
            for (int i = 1; i < seconds.size(); i++) {
                assertTrue(seconds.get(i) >= seconds.get(i - 1), name + " only grows");
            }
            assertEquals(generated.causeNanos[cause] / 1e9, seconds.get(seconds.size() - 1), 1e-9,
                name + "'s stall time at the log's end: its lines' maxima, as replay's cause table sums them");
        }
    }

    private static String run(final List<String> command) throws Exception {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "timed out: " + command);
        assertEquals(0, process.exitValue(), command + "\n" + output);
        return output;
    }
}
