package io.mech.agent.profiler;

import io.mech.agent.runtime.Console;
import io.mech.probes.profiler.Capture;
import io.mech.probes.profiler.CaptureOutput;
import io.mech.probes.profiler.NativeProfiler;
import io.mech.probes.profiler.ProfileEvent;
import io.mech.probes.profiler.Profiler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import one.profiler.AsyncProfiler;

/**
 * The target's side of {@code mech profile <pid>}: one capture, run on the attach listener's
 * thread so that the command's {@code loadAgent} returns when the files are written. A failure
 * is written to a file the command reads, never thrown into the host.
 */
public final class OnDemandProfile {

    /** What precedes the request in the agent argument; it cannot begin an option list. */
    public static final String PREFIX = "profile:";
    private static final String SEPARATOR = "\n";

    private OnDemandProfile() {
    }

    /** The agent argument asking for a capture. */
    public static String request(final long millis, final ProfileEvent event, final Path extractDir, final Path html) {
        return PREFIX + millis + SEPARATOR + event.asyncProfilerName() + SEPARATOR + extractDir + SEPARATOR + html;
    }

    /** Where the target says why a capture failed. */
    public static Path errorOf(final Path html) {
        return html.resolveSibling(html.getFileName() + ".error");
    }

    /** Runs the capture an agent argument asks for; never throws. */
    public static void run(final String args) {
        final String[] parts = args.substring(PREFIX.length()).split(SEPARATOR, -1);
        final Path html = Path.of(parts[parts.length - 1]);
        try {
            if (parts.length != 4) {
                throw new IOException("malformed request from mech profile: " + parts.length + " parts");
            }
            final AsyncProfiler profiler = NativeProfiler.load(Path.of(parts[2]));
            final ProfileEvent event = ProfileEvent.parse(parts[1]);
            final long millis = Long.parseLong(parts[0]);
            // mech's own profiler, running here with profiler=on, may hold async-profiler for its time-to-safepoint sampling
            Profiler.lendToCapture(() -> Capture.run(profiler, event, millis, html, "ondemand", "ondemand", Capture.FULL_LENGTH,
                CaptureOutput.ALWAYS));
        } catch (final Throwable t) {
            Console.warn("profile capture failed: " + t.getMessage());
            try {
                Files.writeString(errorOf(html), String.valueOf(t.getMessage()), StandardCharsets.UTF_8);
            } catch (final IOException | RuntimeException ignored) {
                // The command reports a capture that left no file at all.
            }
        }
    }
}
