package io.mech.probes.profiler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import one.convert.Arguments;
import one.convert.JfrToFlame;
import one.jfr.JfrReader;

/**
 * What a capture leaves beside its JFR file: the HTML flame graph async-profiler's own converter
 * draws from it, and a JSON file saying what was asked for, when, and which engine sampled.
 */
public final class CaptureOutput {

    /**
     * What a capture was.
     *
     * @param trigger   why it was taken
     * @param mode      trigger (sampling started at the trigger), continuous (a window of the
     *                  running profile) or ondemand
     * @param start     when its samples begin
     * @param millis    how long it sampled
     * @param event     what it sampled, in async-profiler's words
     * @param graphOf   which samples the flame graph shows
     * @param jdkEvents whether the JDK's and mech's JFR events are in the JFR file
     * @param cutShort  whether sampling ended before its length (the host was exiting)
     */
    public record Info(String trigger, String mode, Instant start, long millis, String event, ProfileEvent graphOf,
                       boolean jdkEvents, boolean cutShort) {
    }

    /**
     * Creates a capture's output files. The profiler's own refuses once the host's exit gave up
     * on the capture, so that no file appears after the exit removed the capture's files.
     */
    @FunctionalInterface
    public interface Opener {

        /** Opens a new file for writing. */
        OutputStream open(Path file) throws IOException;
    }

    /** Opens every file asked for. */
    public static final Opener ALWAYS = file -> Files.newOutputStream(file);

    private CaptureOutput() {
    }

    /**
     * Writes the flame graph and the metadata of a JFR file async-profiler wrote.
     *
     * @param jfr     the capture's JFR file
     * @param html    the flame graph to write; the metadata goes beside it
     * @param info    what the capture was
     * @param version async-profiler's version
     * @param opener  creates the two files
     * @throws IOException when the JFR file cannot be read or the outputs written
     */
    public static void write(final Path jfr, final Path html, final Info info, final String version, final Opener opener)
        throws IOException {
        final String engine;
        // One pass: the converter reads every chunk, and the reader keeps the settings it met.
        try (JfrReader reader = new JfrReader(jfr.toString())) {
            final JfrToFlame converter = new JfrToFlame(reader, new Arguments("--" + info.graphOf().asyncProfilerName(),
                "--title", "mech " + info.trigger() + " " + info.start()));
            converter.convert();
            try (OutputStream out = opener.open(html)) {
                converter.dump(out);
            }
            engine = engineOf(reader);
        }
        final String metadata = String.format(Locale.ROOT,
            "{\"trigger\":\"%s\",\"mode\":\"%s\",\"start\":\"%s\",\"millis\":%d,\"event\":\"%s\",\"engine\":\"%s\","
                + "\"jdkEvents\":%b,\"cutShort\":%b,\"profiler\":\"%s\",\"jfr\":\"%s\"}%n",
            info.trigger(), info.mode(), info.start(), info.millis(), info.event(), engine, info.jdkEvents(), info.cutShort(),
            version.trim(), jfr.getFileName());
        try (OutputStream out = opener.open(CaptureFiles.metadataOf(html))) {
            out.write(metadata.getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * The engine async-profiler sampled with, as it recorded in the file: where perf events are
     * refused (containers, virtual machines, perf_event_paranoid) {@code cpu} runs on a timer
     * engine, and this says which.
     */
    private static String engineOf(final JfrReader read) {
        return read.settings.getOrDefault("engine", "unknown");
    }
}
