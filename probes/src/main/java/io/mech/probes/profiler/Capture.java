package io.mech.probes.profiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import one.profiler.AsyncProfiler;

/**
 * One capture: async-profiler runs for a while and writes an HTML flame graph, with a JSON file
 * beside it that says what was asked for and when.
 */
public final class Capture {

    private Capture() {
    }

    /**
     * Profiles this JVM, blocking the calling thread for the capture's length.
     *
     * @param profiler the loaded profiler
     * @param event    what to sample
     * @param millis   how long to sample
     * @param html     the flame graph to write; its metadata goes to the same name with .json
     * @param trigger  why the capture was taken, for the metadata
     * @throws IOException when async-profiler refuses to start or to write, with its message
     */
    public static void run(final AsyncProfiler profiler, final ProfileEvent event, final long millis, final Path html,
        final String trigger) throws IOException, InterruptedException {
        final Instant start = Instant.now();
        try {
            profiler.execute("start,event=" + event.asyncProfilerName());
        } catch (final IllegalStateException e) {
            throw new IOException("async-profiler did not start (" + event.asyncProfilerName() + "): " + e.getMessage(), e);
        }
        try {
            Thread.sleep(millis);
        } finally {
            try {
                profiler.execute("stop,file=" + html.toAbsolutePath() + ",title=mech " + trigger + " " + start);
            } catch (final IllegalStateException e) {
                throw new IOException("async-profiler did not write " + html + ": " + e.getMessage(), e);
            }
        }
        Files.writeString(metadataOf(html), String.format(Locale.ROOT,
            "{\"trigger\":\"%s\",\"start\":\"%s\",\"millis\":%d,\"event\":\"%s\",\"profiler\":\"%s\"}%n",
            trigger, start, millis, event.asyncProfilerName(), profiler.getVersion().trim()), StandardCharsets.UTF_8);
    }

    /** The metadata file beside a flame graph. */
    public static Path metadataOf(final Path html) {
        final String name = html.getFileName().toString();
        return html.resolveSibling((name.endsWith(".html") ? name.substring(0, name.length() - 5) : name) + ".json");
    }
}
