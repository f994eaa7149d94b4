package io.mech.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/** Runs HdrHistogram's own HistogramLogProcessor in a forked JVM and returns its {@code .hgrm}. */
final class HistogramLogProcessorRun {

    private HistogramLogProcessorRun() {
    }

    static Path hdrHistogramJar() throws Exception {
        return Path.of(Histogram.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /**
     * @param log     the input log
     * @param options further HistogramLogProcessor options, such as {@code -start 30}
     * @return the text of the .hgrm it wrote
     */
    static String hgrm(final Path log, final Path workDir, final String... options) throws Exception {
        final Path base = Files.createTempFile(workDir, "hlp", "");
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", hdrHistogramJar().toString(), "org.HdrHistogram.HistogramLogProcessor",
            "-i", log.toString(), "-o", base.toString()));
        command.addAll(List.of(options));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("HistogramLogProcessor failed: " + command + "\n" + new String(output, StandardCharsets.UTF_8));
        }
        return Files.readString(Path.of(base + ".hgrm"), StandardCharsets.UTF_8);
    }
}
