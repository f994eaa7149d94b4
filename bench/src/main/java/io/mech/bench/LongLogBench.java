package io.mech.bench;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code mech replay} of a {@value #DAYS}-day log of one-second intervals in a 128 MiB heap, beside
 * HistogramLogProcessor in the same heap: wall time, peak resident set, and whether both printed
 * the same percentile rows. replay keeps nothing per interval unless an output asks for every
 * interval, so its peak should be the day log's.
 *
 * <p>The log is {@link ReplayBench}'s day log written {@value #DAYS} times over, each copy's time
 * stamps moved on by a day (about 2.3 GB): HdrHistogram's writer would take longer to write eleven
 * million intervals than both tools take to read them. HistogramLogProcessor reads it in about ten
 * minutes, so each tool runs once.
 */
final class LongLogBench {

    static final int DAYS = 128;
    static final String HEAP = "-Xmx128m";
    /** Target for replay's peak resident set on the long log, in MiB: the day log's target. */
    static final double TARGET_RSS_MIB = ReplayBench.TARGET_RSS_MIB;
    private static final long TIMEOUT_SECONDS = 3_600;
    private static final int DAY_SECONDS = 86_400;

    private LongLogBench() {
    }

    static List<Row> run(final Setup setup) throws Exception {
        final Path hdrHistogramJar = ReplayBench.hdrHistogramJar();
        if (!Files.isRegularFile(hdrHistogramJar)) {
            throw new IOException(hdrHistogramJar + " is missing: build mech first (mvn -B verify fetches it)");
        }
        final Path day = setup.workDir().resolve("day.hlog");
        if (!Files.isRegularFile(day)) {
            ReplayBench.writeDayLog(hdrHistogramJar, day, 42);
        }
        final Path log = setup.workDir().resolve(DAYS + "-days.hlog");
        if (!Files.isRegularFile(log)) {
            repeat(day, log);
        }
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final ReplayBench.Measured mech = ReplayBench.measure(setup.workDir(),
            List.of(java, HEAP, "-jar", setup.mechJar().toString(), "replay", log.toString()), TIMEOUT_SECONDS);
        final Path base = setup.workDir().resolve("hlp-" + DAYS + "-days");
        final ReplayBench.Measured hlp = ReplayBench.measure(setup.workDir(), List.of(java, HEAP, "-cp", hdrHistogramJar.toString(),
            ReplayBench.HDR + ".HistogramLogProcessor", "-i", log.toString(), "-o", base.toString()), TIMEOUT_SECONDS);
        final List<String> ours = ReplayBench.distribution(mech.out());
        final List<String> theirs = ReplayBench.distribution(Files.readString(Path.of(base + ".hgrm"), StandardCharsets.UTF_8));
        Files.deleteIfExists(base);
        final String figure = String.format(Locale.ROOT, "replay %d-day log (%,.0f MB) in a 128 MiB heap: ", DAYS, Files.size(log) / 1e6);
        final List<Row> rows = new ArrayList<>();
        rows.add(Row.of(figure + "wall", "mech replay", "s", Stats.of(List.of(mech.wallNanos() / 1e9))));
        rows.add(Row.of(figure + "wall", "HistogramLogProcessor", "s", Stats.of(List.of(hlp.wallNanos() / 1e9))));
        rows.add(Row.of(figure + "peak RSS", "mech replay", "MiB", Stats.of(List.of(mech.peakKib() / 1024.0))).atMost(TARGET_RSS_MIB));
        rows.add(Row.of(figure + "peak RSS", "HistogramLogProcessor", "MiB", Stats.of(List.of(hlp.peakKib() / 1024.0))));
        rows.add(Row.of(figure + "percentile rows identical to .hgrm", "mech replay", "1 = yes",
            Stats.of(List.of(ours.size() > 10 && ours.equals(theirs) ? 1.0 : 0.0))).atLeast(1));
        return rows;
    }

    /** Writes the day log's header once and its intervals {@value #DAYS} times, each copy a day later. */
    private static void repeat(final Path day, final Path log) throws IOException {
        final List<String> header = new ArrayList<>();
        final List<String> intervals = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(day, StandardCharsets.US_ASCII)) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                (intervals.isEmpty() && !Character.isDigit(line.charAt(0)) ? header : intervals).add(line);
            }
        }
        final Path partial = log.resolveSibling(log.getFileName() + ".partial");
        try (BufferedWriter out = Files.newBufferedWriter(partial, StandardCharsets.US_ASCII)) {
            for (final String line : header) {
                out.write(line);
                out.newLine();
            }
            for (int d = 0; d < DAYS; d++) {
                for (final String line : intervals) {
                    final int comma = line.indexOf(',');
                    final double start = Double.parseDouble(line.substring(0, comma)) + (double) d * DAY_SECONDS;
                    out.write(String.format(Locale.ROOT, "%.3f", start));
                    out.write(line, comma, line.length() - comma);
                    out.newLine();
                }
            }
        }
        Files.move(partial, log);
    }
}
