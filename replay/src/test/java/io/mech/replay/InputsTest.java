package io.mech.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs beyond one plain file: gzip, standard input, absolute windows, and several logs merged on absolute time. */
class InputsTest {

    @TempDir
    Path dir;

    @Test
    void gzipReadsAsPlain() throws Exception {
        final Path plain = TestLogs.copy(TestLogs.MECH, dir);
        final Path gzip = dir.resolve("mech.hlog.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gzip))) {
            out.write(Files.readAllBytes(plain));
        }
        final Outcome expected = Outcome.replay(plain.toString());
        final Outcome outcome = Outcome.replay(gzip.toString());
        assertEquals(0, outcome.code(), outcome.err());
        assertEquals(Outcome.distribution(expected.out()), Outcome.distribution(outcome.out()));
        assertTrue(Outcome.distribution(outcome.out()).size() > 10);
    }

    @Test
    void standardInputReadsAsAFile() throws Exception {
        final Path plain = TestLogs.copy(TestLogs.TAGGED, dir);
        final Outcome expected = Outcome.replay("--tag", "gc", plain.toString());
        final Outcome outcome = Outcome.replayWithStdin(Files.readAllBytes(plain), "--tag", "gc", "-");
        assertEquals(0, outcome.code(), outcome.err());
        assertEquals(Outcome.distribution(expected.out()), Outcome.distribution(outcome.out()));
    }

    @Test
    void isoWindowEqualsRelativeWindow() throws Exception {
        final Path log = TestLogs.copy(TestLogs.MECH, dir);
        final Instant start = Instant.ofEpochMilli(TestLogs.START_MILLIS);
        final Outcome relative = Outcome.replay("--start", "30s", "--end", "60s", log.toString());
        final Outcome absolute = Outcome.replay("--start", start.plusSeconds(30).toString(), "--end", start.plusSeconds(60).toString(),
            log.toString());
        assertEquals(0, absolute.code(), absolute.err());
        assertEquals(Outcome.distribution(relative.out()), Outcome.distribution(absolute.out()));
        assertTrue(!Outcome.distribution(Outcome.replay(log.toString()).out()).equals(Outcome.distribution(relative.out())));
    }

    @Test
    void severalLogsMergeIntoTheSumOfTheirIntervals() throws Exception {
        final Path a = TestLogs.copy(TestLogs.MECH, dir);
        final Path b = TestLogs.copy(TestLogs.WRITER, dir);
        final List<Histogram> intervals = new ArrayList<>();
        for (final Path log : List.of(a, b)) {
            try (HistogramLogReader reader = new HistogramLogReader(log.toFile())) {
                EncodableHistogram h;
                while ((h = reader.nextIntervalHistogram()) != null) {
                    intervals.add((Histogram) h);
                }
            }
        }
        // Shaped like the interval that starts first, as replay documents; the sum does not depend on order.
        Histogram earliest = intervals.get(0);
        for (final Histogram h : intervals) {
            if (h.getStartTimeStamp() < earliest.getStartTimeStamp()) {
                earliest = h;
            }
        }
        final Histogram expected = earliest.copy();
        expected.reset();
        expected.setAutoResize(true);
        intervals.forEach(expected::add);
        final ByteArrayOutputStream rows = new ByteArrayOutputStream();
        expected.outputPercentileDistribution(new PrintStream(rows, true, StandardCharsets.UTF_8), 5, 1e6);

        final Outcome outcome = Outcome.replay("--per-file", a.toString(), b.toString());
        assertEquals(0, outcome.code(), outcome.err());
        assertEquals(Outcome.distribution(rows.toString(StandardCharsets.UTF_8)), Outcome.distribution(outcome.out()));
        assertTrue(outcome.out().contains("#[Percentile distribution of " + a + "]"), outcome.out());
        assertTrue(outcome.out().contains("#[Percentile distribution of " + b + "]"), outcome.out());
    }

    @Test
    void logsAreAlignedOnAbsoluteTime() throws Exception {
        final Path a = TestLogs.copy(TestLogs.MECH, dir);
        final Path b = dir.resolve("later.hlog");
        // The same log, started 30 s later: the StartTime and BaseTime lines move, the relative lines stay.
        final String shifted = new String(TestLogs.bytes(TestLogs.MECH), StandardCharsets.US_ASCII)
            .replace(Long.toString(TestLogs.START_MILLIS / 1000) + ".", Long.toString(TestLogs.START_MILLIS / 1000 + 30) + ".");
        Files.writeString(b, shifted, StandardCharsets.US_ASCII);
        final Outcome merged = Outcome.replay("--format", "json", "--intervals", a.toString(), b.toString());
        final Outcome single = Outcome.replay("--format", "json", "--intervals", a.toString());
        assertEquals(0, merged.code(), merged.err());
        final List<Long> mergedCounts = counts(merged.out());
        final List<Long> singleCounts = counts(single.out());
        assertEquals(TestLogs.INTERVALS + 30, mergedCounts.size());
        assertEquals(singleCounts.get(0), mergedCounts.get(0));
        // Second 40 of the merged view holds second 40 of the first log and second 10 of the second.
        assertEquals(singleCounts.get(40) + singleCounts.get(10), mergedCounts.get(40));
        assertEquals(singleCounts.get(TestLogs.INTERVALS - 1), mergedCounts.get(mergedCounts.size() - 1));
    }

    private static List<Long> counts(final String json) {
        final int at = json.indexOf("\"intervals\":[");
        assertTrue(at > 0, json);
        final Matcher m = Pattern.compile("\"count\":(\\d+)").matcher(json.substring(at));
        final List<Long> counts = new ArrayList<>();
        while (m.find()) {
            counts.add(Long.parseLong(m.group(1)));
        }
        return counts;
    }

    @Test
    void decoderMatchesHdrHistogramsDecodingAndFigures() throws Exception {
        int compared = 0;
        for (final String name : TestLogs.ALL) {
            final byte[] bytes = TestLogs.bytes(name);
            final PayloadDecoder decoder = new PayloadDecoder();
            for (final String line : new String(bytes, StandardCharsets.US_ASCII).split("\n")) {
                if (line.startsWith("#") || line.startsWith("\"")) {
                    continue;
                }
                final String payload = line.substring(line.lastIndexOf(',') + 1);
                final Histogram expected = Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(java.util.Base64.getDecoder().decode(payload)), 0);
                final byte[] text = payload.getBytes(StandardCharsets.US_ASCII);
                final IntervalCounts decoded = decoder.decode(text, 0, text.length);
                assertEquals(expected, decoded.toHistogram(), name + ": " + line);
                assertEquals(expected.getTotalCount(), decoded.totalCount(), line);
                assertEquals(expected.getMaxValue(), decoded.max(), line);
                for (final double p : new double[] {0.0, 1e-9, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
                    assertEquals(expected.getValueAtPercentile(p), decoded.valueAtPercentile(p), "p" + p + " of " + line);
                }
                compared++;
            }
        }
        assertTrue(compared > 400, "compared " + compared);
    }
}
