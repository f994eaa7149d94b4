package io.mech.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * {@code mech replay} against HdrHistogram's HistogramLogProcessor on the same 24-hour log of
 * one-second intervals: wall time (fork to exit), speed-up, peak resident set, and whether both
 * printed the same percentile distribution rows. Then fleets: 10, 100 and 1,000 day-logs merged
 * (symbolic links to the one log, which times the merge without writing 15 GB), with wall time,
 * throughput and peak resident set; and, for correctness, 20 hour-logs of distinct seeds merged,
 * against HistogramLogProcessor on the same logs concatenated.
 *
 * <p>Peak RSS is the kernel's maximum resident set of the JVM, read with {@code /usr/bin/time -f %M}
 * (Debian package {@code time}); without it, {@code VmHWM} polled from {@code /proc/<pid>/status}
 * every 5 ms, which can miss growth in the last few milliseconds of a run. The row says which.
 *
 * <p>The log is written with the HistogramLogWriter of the jar HistogramLogProcessor runs from,
 * loaded through a class loader of its own.
 */
final class ReplayBench {

    /** Target: replay at least this many times faster than HistogramLogProcessor. */
    static final double TARGET_SPEED_UP = 10;
    /** Target for replay's peak resident set, in MiB. */
    static final double TARGET_RSS_MIB = 128;
    /** Target for a fleet merge's peak resident set, whatever the number of logs, in MiB. */
    static final double TARGET_FLEET_RSS_MIB = 256;
    /** Fleet sizes merged. */
    static final int[] FLEETS = {10, 100, 1000};
    /** Logs of distinct seeds in the correctness check, and their length in intervals. */
    static final int DISTINCT_LOGS = 20;
    static final int DISTINCT_INTERVALS = 3_600;

    static final int INTERVALS = 86_400;
    /**
     * HdrHistogram's package in the unshaded jar, built at run time: the bench jar relocates its own
     * HdrHistogram, and the shade plugin rewrites string constants that name the package too.
     */
    static final String HDR = String.join(".", "org", "HdrHistogram");
    private static final Path TIME = Path.of("/usr/bin/time");
    private static final long TIMEOUT_SECONDS = 600;

    private ReplayBench() {
    }

    /** Runs with {@link #hdrHistogramJar()}. */
    static List<Row> run(final Setup setup) throws Exception {
        return run(setup, hdrHistogramJar());
    }

    /** HdrHistogram's jar from {@code -Dmech.bench.hdrhistogram.jar}, else from the local Maven repository. */
    static Path hdrHistogramJar() {
        final String given = System.getProperty("mech.bench.hdrhistogram.jar");
        return given != null ? Path.of(given) : Path.of(System.getProperty("user.home"),
            ".m2/repository/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar");
    }

    static List<Row> run(final Setup setup, final Path hdrHistogramJar) throws Exception {
        if (!Files.isRegularFile(hdrHistogramJar)) {
            throw new IOException(hdrHistogramJar + " is missing: build mech first (mvn -B verify fetches it)");
        }
        final Path log = setup.workDir().resolve("day.hlog");
        if (!Files.isRegularFile(log)) {
            writeDayLog(hdrHistogramJar, log, 42);
        }
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<Double> mechWall = new ArrayList<>();
        final List<Double> hlpWall = new ArrayList<>();
        final List<Double> mechRss = new ArrayList<>();
        final List<Double> hlpRss = new ArrayList<>();
        final List<Double> identical = new ArrayList<>();
        for (int round = 0; round < setup.rounds(); round++) {
            final Measured mech = measure(setup.workDir(), List.of(java, "-jar", setup.mechJar().toString(), "replay", log.toString()));
            final Path base = setup.workDir().resolve("hlp-" + round);
            final Measured hlp = measure(setup.workDir(), List.of(java, "-cp", hdrHistogramJar.toString(),
                HDR + ".HistogramLogProcessor", "-i", log.toString(), "-o", base.toString()));
            mechWall.add(mech.wallNanos / 1e6);
            hlpWall.add(hlp.wallNanos / 1e6);
            mechRss.add(mech.peakKib / 1024.0);
            hlpRss.add(hlp.peakKib / 1024.0);
            final List<String> ours = distribution(mech.out);
            final List<String> theirs = distribution(Files.readString(Path.of(base + ".hgrm"), StandardCharsets.UTF_8));
            identical.add(ours.size() > 10 && ours.equals(theirs) ? 1.0 : 0.0);
        }
        final String rss = Files.isExecutable(TIME) ? "/usr/bin/time %M" : "VmHWM polled";
        final List<Row> rows = new ArrayList<>();
        rows.add(Row.of("replay 24 h log: wall", "mech replay", "ms", Stats.of(mechWall)));
        rows.add(Row.of("replay 24 h log: wall", "HistogramLogProcessor", "ms", Stats.of(hlpWall)));
        rows.add(Row.of("replay 24 h log: speed-up over HistogramLogProcessor", "mech replay", "x",
            Stats.of(Alternation.paired(hlpWall, mechWall, (theirs, ours) -> theirs / ours))).atLeast(TARGET_SPEED_UP));
        rows.add(Row.of("replay 24 h log: peak RSS (" + rss + ")", "mech replay", "MiB", Stats.of(mechRss)).atMost(TARGET_RSS_MIB));
        rows.add(Row.of("replay 24 h log: peak RSS (" + rss + ")", "HistogramLogProcessor", "MiB", Stats.of(hlpRss)));
        rows.add(Row.of("replay 24 h log: percentile rows identical to .hgrm", "mech replay", "1 = yes", Stats.of(identical))
            .atLeast(1));
        final double megabytes = Files.size(log) / 1e6;
        rows.add(Row.of("replay 24 h log: throughput", "mech replay", "MB/s",
            Stats.of(mechWall.stream().map(ms -> megabytes / (ms / 1e3)).toList())));
        for (final int logs : FLEETS) {
            rows.addAll(fleet(setup, java, log, logs));
        }
        rows.add(distinct(setup, java, hdrHistogramJar));
        return rows;
    }

    /**
     * Merges {@code logs} links to the day log. A thousand take minutes a round, so the largest
     * fleet runs one round; the others run the setup's rounds.
     */
    private static List<Row> fleet(final Setup setup, final String java, final Path log, final int logs) throws Exception {
        final Path dir = setup.workDir().resolve("fleet-" + logs);
        Files.createDirectories(dir);
        for (int i = 0; i < logs; i++) {
            final Path link = dir.resolve(String.format("host-%04d.hlog", i));
            if (!Files.exists(link)) {
                Files.createSymbolicLink(link, log.toAbsolutePath());
            }
        }
        final int rounds = logs >= 1000 ? 1 : setup.rounds();
        final List<Double> wall = new ArrayList<>();
        final List<Double> throughput = new ArrayList<>();
        final List<Double> rss = new ArrayList<>();
        final double megabytes = Files.size(log) * (double) logs / 1e6;
        for (int round = 0; round < rounds; round++) {
            final Measured m = measure(setup.workDir(), List.of(java, "-jar", setup.mechJar().toString(), "replay", dir.toString()));
            if (distribution(m.out).size() <= 10) {
                throw new IOException("replay of " + logs + " logs printed no distribution:\n" + m.out);
            }
            wall.add(m.wallNanos / 1e9);
            throughput.add(megabytes / (m.wallNanos / 1e9));
            rss.add(m.peakKib / 1024.0);
        }
        final String figure = String.format("replay %,d day-logs (%,.0f MB): ", logs, megabytes);
        return List.of(
            Row.of(figure + "wall", "mech replay", "s", Stats.of(wall)),
            Row.of(figure + "throughput", "mech replay", "MB/s", Stats.of(throughput)),
            Row.of(figure + "peak RSS", "mech replay", "MiB", Stats.of(rss)).atMost(TARGET_FLEET_RSS_MIB));
    }

    /** Whether a merge of logs of distinct seeds prints HistogramLogProcessor's rows for the logs concatenated. */
    private static Row distinct(final Setup setup, final String java, final Path hdrHistogramJar) throws Exception {
        final Path dir = setup.workDir().resolve("distinct");
        Files.createDirectories(dir);
        final Path concatenated = setup.workDir().resolve("distinct-concatenated.hlog");
        try (var out = Files.newOutputStream(concatenated)) {
            for (int i = 0; i < DISTINCT_LOGS; i++) {
                final Path log = dir.resolve(String.format("host-%02d.hlog", i));
                writeDayLog(hdrHistogramJar, log, 1000 + i, DISTINCT_INTERVALS);
                Files.copy(log, out);
            }
        }
        final Measured mech = measure(setup.workDir(), List.of(java, "-jar", setup.mechJar().toString(), "replay", dir.toString()));
        final Path base = setup.workDir().resolve("hlp-distinct");
        measure(setup.workDir(), List.of(java, "-cp", hdrHistogramJar.toString(), HDR + ".HistogramLogProcessor", "-i",
            concatenated.toString(), "-o", base.toString()));
        final List<String> ours = distribution(mech.out);
        final List<String> theirs = distribution(Files.readString(Path.of(base + ".hgrm"), StandardCharsets.UTF_8));
        return Row.of("replay " + DISTINCT_LOGS + " 1 h logs of distinct seeds: rows identical to HistogramLogProcessor on them "
            + "concatenated", "mech replay", "1 = yes", Stats.of(List.of(ours.size() > 10 && ours.equals(theirs) ? 1.0 : 0.0)))
            .atLeast(1);
    }

    /**
     * One finished run.
     *
     * @param wallNanos fork to exit
     * @param peakKib   peak resident set
     * @param out       standard output
     */
    record Measured(long wallNanos, long peakKib, String out) {
    }

    static Measured measure(final Path workDir, final List<String> command) throws IOException, InterruptedException {
        return measure(workDir, command, TIMEOUT_SECONDS);
    }

    static Measured measure(final Path workDir, final List<String> command, final long timeoutSeconds)
        throws IOException, InterruptedException {
        final boolean timed = Files.isExecutable(TIME);
        final Path peak = Files.createTempFile(workDir, "rss", ".txt");
        final List<String> full = new ArrayList<>();
        if (timed) {
            full.addAll(List.of(TIME.toString(), "-q", "-f", "%M", "-o", peak.toString()));
        }
        full.addAll(command);
        final Path out = Files.createTempFile(workDir, "out", ".txt");
        final Path err = Files.createTempFile(workDir, "err", ".txt");
        final long start = System.nanoTime();
        final Process process = new ProcessBuilder(full).directory(workDir.toFile()).redirectOutput(out.toFile())
            .redirectError(err.toFile()).start();
        long hwm = 0;
        while (!process.waitFor(timed ? timeoutSeconds * 1000 : 5, TimeUnit.MILLISECONDS)) {
            if (!timed) {
                hwm = Math.max(hwm, vmHwmKib(process.pid()));
            }
            if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(timeoutSeconds)) {
                process.destroyForcibly().waitFor();
                throw new IOException("timed out after " + timeoutSeconds + " s: " + String.join(" ", full));
            }
        }
        final long wall = System.nanoTime() - start;
        if (process.exitValue() != 0) {
            throw new IOException("exit " + process.exitValue() + ": " + String.join(" ", full) + "\n"
                + Files.readString(err, StandardCharsets.UTF_8));
        }
        if (timed) {
            final List<String> lines = Files.readAllLines(peak, StandardCharsets.UTF_8);
            hwm = Long.parseLong(lines.get(lines.size() - 1).trim());
        }
        return new Measured(wall, hwm, Files.readString(out, StandardCharsets.UTF_8));
    }

    private static long vmHwmKib(final long pid) {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (final IOException | NumberFormatException e) {
            // the process has just exited: the last value read stands
        }
        return 0;
    }

    /** The percentile rows of a distribution: from the column header through the {@code #[Buckets} line. */
    static List<String> distribution(final String text) {
        final List<String> rows = new ArrayList<>();
        for (final String line : text.split("\n", -1)) {
            if (rows.isEmpty() && !line.trim().startsWith("Value")) {
                continue;
            }
            rows.add(line);
            if (line.startsWith("#[Buckets")) {
                break;
            }
        }
        return rows;
    }

    /**
     * Writes a day of one-second intervals as mech does (format 1.3, StartTime, BaseTime, relative
     * time stamps, two significant digits, values in ns): about 950 samples a second around 70 us,
     * and one stall of 2 to 150 ms a minute on average, recorded with 1 ms expected-interval
     * correction as mech's meter records it.
     */
    static void writeDayLog(final Path hdrHistogramJar, final Path log, final long seed) throws Exception {
        writeDayLog(hdrHistogramJar, log, seed, INTERVALS);
    }

    /** As {@link #writeDayLog(Path, Path, long)}, with {@code intervals} one-second intervals. */
    static void writeDayLog(final Path hdrHistogramJar, final Path log, final long seed, final int intervals) throws Exception {
        final Random random = new Random(seed);
        final long startMillis = 1_735_689_600_000L;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {hdrHistogramJar.toUri().toURL()}, null);
             PrintStream out = new PrintStream(new BufferedOutputStream(Files.newOutputStream(log), 1 << 16), false,
                 StandardCharsets.US_ASCII)) {
            final Class<?> histogramClass = loader.loadClass(HDR + ".Histogram");
            final Class<?> writerClass = loader.loadClass(HDR + ".HistogramLogWriter");
            final Object histogram = histogramClass.getConstructor(long.class, int.class).newInstance(86_400_000_000_000L, 2);
            final Object writer = writerClass.getConstructor(PrintStream.class).newInstance(out);
            final Method reset = histogramClass.getMethod("reset");
            final Method recordWithCount = histogramClass.getMethod("recordValueWithCount", long.class, long.class);
            final Method recordCorrected = histogramClass.getMethod("recordValueWithExpectedInterval", long.class, long.class);
            final Method setStart = histogramClass.getMethod("setStartTimeStamp", long.class);
            final Method setEnd = histogramClass.getMethod("setEndTimeStamp", long.class);
            final Method write = writerClass.getMethod("outputIntervalHistogram", loader.loadClass(HDR + ".EncodableHistogram"));
            writerClass.getMethod("outputLogFormatVersion").invoke(writer);
            writerClass.getMethod("outputStartTime", long.class).invoke(writer, startMillis);
            writerClass.getMethod("setBaseTime", long.class).invoke(writer, startMillis);
            writerClass.getMethod("outputBaseTime", long.class).invoke(writer, startMillis);
            writerClass.getMethod("outputLegend").invoke(writer);
            final long[] microseconds = new long[400];
            for (int i = 0; i < intervals; i++) {
                reset.invoke(histogram);
                // Samples binned by microsecond first: one reflective call per bin, not per sample.
                final int samples = 900 + random.nextInt(100);
                for (int s = 0; s < samples; s++) {
                    microseconds[(int) Math.min(microseconds.length - 1, 50 + Math.abs(random.nextGaussian()) * 20)]++;
                }
                for (int us = 0; us < microseconds.length; us++) {
                    if (microseconds[us] > 0) {
                        recordWithCount.invoke(histogram, us * 1_000L + random.nextInt(1_000), microseconds[us]);
                        microseconds[us] = 0;
                    }
                }
                if (random.nextInt(60) == 0) {
                    recordCorrected.invoke(histogram, 2_000_000L + random.nextInt(148_000_000), 1_000_000L);
                }
                setStart.invoke(histogram, startMillis + i * 1000L);
                setEnd.invoke(histogram, startMillis + (i + 1) * 1000L);
                write.invoke(writer, histogram);
            }
        }
    }
}
