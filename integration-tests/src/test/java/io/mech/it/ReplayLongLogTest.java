package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.JsonReader;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * replay's memory does not grow with a log's length when no output asks for every interval: a
 * log of {@value #INTERVALS} one-second intervals (4.6 days), one in ten with a gc stall in its
 * cause line, is replayed in a 16 MiB heap, where a point per interval alone (56 bytes each,
 * 22 MB) would not fit.
 */
@QuietHosts
class ReplayLongLogTest {

    private static final int INTERVALS = 400_000;
    private static final long START_MILLIS = 1_735_689_600_000L;

    @TempDir
    Path dir;

    /** One interval line of HdrHistogram's own writer, and the log's header, from a writer of one interval. */
    private static List<String> oneInterval(final Histogram interval, final String tag) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final HistogramLogWriter writer = new HistogramLogWriter(new PrintStream(bytes, true, StandardCharsets.US_ASCII));
        writer.outputLogFormatVersion();
        writer.outputStartTime(START_MILLIS);
        writer.outputLegend();
        interval.setStartTimeStamp(START_MILLIS);
        interval.setEndTimeStamp(START_MILLIS + 1_000);
        interval.setTag(tag);
        writer.outputIntervalHistogram(interval);
        return bytes.toString(StandardCharsets.US_ASCII).lines().toList();
    }

    @Test
    void aLongLogReplaysInASmallHeap() throws Exception {
        final Histogram hiccups = new Histogram(3_600_000_000_000L, 3);
        for (int v = 1; v <= 1_000; v++) {
            hiccups.recordValue(v * 20_000L);
        }
        final Histogram gc = new Histogram(3_600_000_000_000L, 3);
        gc.recordValue(50_000_000L);
        final List<String> plain = oneInterval(hiccups, null);
        final String hiccupLine = plain.get(plain.size() - 1);
        final String gcLine = oneInterval(gc, "gc").get(plain.size() - 1);
        final String hiccupPayload = hiccupLine.substring(hiccupLine.indexOf(',') + 1);
        final String gcPayload = gcLine.substring(gcLine.indexOf(',', gcLine.indexOf(',') + 1) + 1);
        final Path log = dir.resolve("long.hlog");
        try (BufferedWriter out = Files.newBufferedWriter(log, StandardCharsets.US_ASCII)) {
            for (final String header : plain.subList(0, plain.size() - 1)) {
                out.write(header);
                out.newLine();
            }
            for (int i = 0; i < INTERVALS; i++) {
                final String start = String.format(Locale.ROOT, "%d.000", i);
                out.write(start);
                out.write(',');
                out.write(hiccupPayload);
                out.newLine();
                if (i % 10 == 0) {
                    out.write("Tag=gc,");
                    out.write(start);
                    out.write(',');
                    out.write(gcPayload);
                    out.newLine();
                }
            }
        }
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Forked.Result result = Forked.run(dir, List.of(java.toString(), "-Xmx16m", "-jar", Paths.mechJar().toString(),
            "replay", "--format", "json", log.toString()), 120);
        assertEquals(0, result.exit(), "replay of " + Files.size(log) / 1_000_000 + " MB in 16 MiB: " + result.err());
        final Map<String, Object> replay = JsonReader.object(result.out());
        final long count = (long) INTERVALS * hiccups.getTotalCount();
        assertTrue(((List<?>) replay.get("views")).stream().map(view -> (Map<?, ?>) view).anyMatch(view -> view.get("intervals")
            .equals(BigDecimal.valueOf(INTERVALS)) && view.get("count").equals(BigDecimal.valueOf(count))),
            INTERVALS + " intervals and a count of " + count + " in " + result.out());
        assertTrue(((List<?>) replay.get("causes")).stream().map(cause -> (Map<?, ?>) cause).anyMatch(cause -> cause.get("cause")
            .equals("gc") && cause.get("stalls").equals(BigDecimal.valueOf(INTERVALS / 10))), result.out());
    }
}
