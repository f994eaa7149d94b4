package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.mech.testing.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;

/** HdrHistogram 2.2.2's own tools, run in a separate JVM as a user would run them. */
public final class HdrTools {

    private static final Pattern MAX = Pattern.compile("#\\[Max\\s*=\\s*([0-9.]+),");

    private HdrTools() {
    }

    /** Runs HistogramLogProcessor on a log and returns the .hgrm it wrote. */
    public static String processLog(final Path log, final String... options) throws Exception {
        final Path base = log.resolveSibling(log.getFileName() + ".processed");
        final List<String> command = new ArrayList<>(List.of(Jdks.java(Path.of(System.getProperty("java.home"))),
            "-cp", Paths.codeSource(Histogram.class).toString(), "org.HdrHistogram.HistogramLogProcessor",
            "-i", log.toString(), "-o", base.toString()));
        command.addAll(List.of(options));
        final Forked.Result result = Forked.run(log.getParent(), command, 60);
        assertEquals(0, result.exit(), "HistogramLogProcessor failed: " + result.err());
        return Files.readString(base.resolveSibling(base.getFileName() + ".hgrm"), StandardCharsets.US_ASCII);
    }

    /** The maximum an .hgrm reports, in its output unit (milliseconds by default). */
    public static double max(final String hgrm) {
        final Matcher m = MAX.matcher(hgrm);
        if (!m.find()) {
            throw new AssertionError("no #[Max = ...] line in:\n" + hgrm);
        }
        return Double.parseDouble(m.group(1));
    }

    /**
     * Every interval HdrHistogram's own reader takes from a log, in this JVM. The reader treats a
     * line it cannot parse as the end of the log, so compare the count with {@link #allIntervalLines}.
     */
    public static List<EncodableHistogram> readIntervals(final Path log) throws Exception {
        final HistogramLogReader reader = new HistogramLogReader(log.toFile());
        try {
            final List<EncodableHistogram> intervals = new ArrayList<>();
            EncodableHistogram interval;
            while ((interval = reader.nextIntervalHistogram()) != null) {
                intervals.add(interval);
            }
            return intervals;
        } finally {
            reader.close();
        }
    }

    /** The untagged interval lines of a log (the totals), split into start, length, max and payload. */
    public static List<String[]> intervalLines(final Path log) throws Exception {
        final List<String[]> lines = new ArrayList<>();
        for (final String[] line : allIntervalLines(log)) {
            if (!line[0].startsWith("Tag=")) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** Every interval line of a log, tagged ones with their {@code Tag=} field first. */
    public static List<String[]> allIntervalLines(final Path log) throws Exception {
        final List<String[]> lines = new ArrayList<>();
        for (final String line : Files.readAllLines(log, StandardCharsets.US_ASCII)) {
            if (!line.startsWith("#") && !line.startsWith("\"") && !line.isBlank()) {
                lines.add(line.split(","));
            }
        }
        return lines;
    }

    /**
     * Waits for a log's first interval, so that what a test does next falls on a running
     * recorder: a fixed sleep once stopped a JDK 25 host still starting, and the stop never
     * reached the log.
     */
    public static void awaitFirstInterval(final Path log) throws Exception {
        Await.until("an interval in " + log, Duration.ofSeconds(15), () -> Files.exists(log) && !intervalLines(log).isEmpty());
    }
}
