package io.mech.replay;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The four logs checked in under {@code src/test/resources/io/mech/replay}, and the code that wrote
 * them once ({@code main}): hiccup-like content, a sample per millisecond around 70 us with an
 * occasional stall recorded with coordinated-omission correction, as mech's meter records.
 */
final class TestLogs {

    /** mech's format: version, StartTime with an ISO date, BaseTime, legend, relative untagged lines. */
    static final String MECH = "mech.hlog";
    /** HdrHistogram's HistogramLogWriter with its defaults: no BaseTime, absolute time stamps, jHiccup's precision. */
    static final String WRITER = "writer.hlog";
    /** Untagged lines and lines tagged {@code gc} and {@code io}, interleaved. */
    static final String TAGGED = "tagged.hlog";
    /** Interval lines only: no version, no StartTime, no BaseTime, no legend. */
    static final String HEADERLESS = "headerless.hlog";
    static final List<String> ALL = List.of(MECH, WRITER, TAGGED, HEADERLESS);

    static final long START_MILLIS = 1_735_700_000_250L;
    static final int INTERVALS = 120;

    private TestLogs() {
    }

    /** Copies a checked-in log to a file. */
    static Path copy(final String name, final Path dir) throws IOException {
        final Path target = dir.resolve(name);
        try (InputStream in = TestLogs.class.getResourceAsStream(name)) {
            Files.copy(in, target);
        }
        return target;
    }

    static byte[] bytes(final String name) throws IOException {
        try (InputStream in = TestLogs.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        }
    }

    /** Writes the four logs into the directory given, as checked in. */
    public static void main(final String[] args) throws IOException {
        final Path dir = Path.of(args[0]);
        write(dir.resolve(MECH), 1, (w, r) -> {
            w.outputLogFormatVersion();
            w.outputComment("[StartTime: " + START_MILLIS / 1000 + "." + START_MILLIS % 1000 + " (seconds since epoch), "
                + LocalDateTime.ofEpochSecond(START_MILLIS / 1000, (int) (START_MILLIS % 1000) * 1_000_000, ZoneOffset.UTC) + "Z]");
            w.setBaseTime(START_MILLIS);
            w.outputBaseTime(START_MILLIS);
            w.outputLegend();
            intervals(w, r, 86_400_000_000_000L, 2, null);
        });
        write(dir.resolve(WRITER), 2, (w, r) -> {
            w.outputLogFormatVersion();
            w.outputStartTime(START_MILLIS);
            w.outputLegend();
            intervals(w, r, 3_600_000_000_000L, 3, null);
        });
        write(dir.resolve(TAGGED), 3, (w, r) -> {
            w.outputLogFormatVersion();
            w.outputStartTime(START_MILLIS);
            w.setBaseTime(START_MILLIS);
            w.outputBaseTime(START_MILLIS);
            w.outputLegend();
            intervals(w, r, 86_400_000_000_000L, 2, new String[] {null, "gc", "io"});
        });
        write(dir.resolve(HEADERLESS), 4, (w, r) -> intervals(w, r, 86_400_000_000_000L, 2, null));
    }

    @FunctionalInterface
    private interface Content {
        void write(HistogramLogWriter writer, Random random);
    }

    private static void write(final Path file, final long seed, final Content content) throws IOException {
        try (PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(file.toFile())), false,
            StandardCharsets.US_ASCII)) {
            content.write(new HistogramLogWriter(out), new Random(seed));
        }
    }

    private static void intervals(final HistogramLogWriter w, final Random r, final long highest, final int digits,
        final String[] tags) {
        final Histogram h = new Histogram(highest, digits);
        for (int i = 0; i < INTERVALS; i++) {
            final String[] each = tags == null ? new String[] {null} : tags;
            for (final String tag : each) {
                h.reset();
                final int samples = 900 + r.nextInt(100);
                for (int s = 0; s < samples; s++) {
                    h.recordValueWithExpectedInterval(50_000 + (long) (Math.abs(r.nextGaussian()) * 20_000), 1_000_000);
                }
                if (r.nextInt(10) == 0) {
                    h.recordValueWithExpectedInterval(2_000_000 + r.nextInt(80_000_000), 1_000_000);
                }
                h.setStartTimeStamp(START_MILLIS + i * 1000L + r.nextInt(3));
                h.setEndTimeStamp(START_MILLIS + (i + 1) * 1000L + r.nextInt(3));
                h.setTag(tag);
                w.outputIntervalHistogram(h);
            }
        }
    }
}
