package io.mech.probes.profiler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;
import one.profiler.AsyncProfiler;

/**
 * A low-rate wall-clock and lock profile that runs all the time, kept as a few JFR segments so
 * that the window around a trigger can be written out after the trouble is over.
 *
 * <p>async-profiler writes JFR only when it stops, so the profile is cut into segments of a fixed
 * length: each rotation stops one and starts the next (a gap of a few milliseconds). The window
 * of a trigger is the segment before the trigger's own, the trigger's own, and the one after when
 * the trigger fell in the second half of its own; JFR files are sequences of chunks, so the
 * window's JFR file is the segments written one after the other. Only the newest segments stay
 * on disk. Not thread-safe: the profiler thread alone calls it.
 */
final class ContinuousProfile implements AutoCloseable {

    /** async-profiler's options for the always-on profile: a wall-clock sample every 100 ms, and lock waits. */
    static final String EVENTS = "event=wall,interval=100ms,lock=10ms";
    private static final int KEPT = 4;

    /** A finished segment: its file and the {@link System#nanoTime()} span it covers. */
    record Segment(Path file, long startNanos, long endNanos) {
    }

    private final AsyncProfiler profiler;
    private final Path dir;
    private final long segmentNanos;
    private final Deque<Segment> done = new ArrayDeque<>();
    private boolean jdkEvents;
    private Path current;
    private long currentStart;
    private long sequence;

    private ContinuousProfile(final AsyncProfiler profiler, final Path dir, final long segmentNanos) {
        this.profiler = profiler;
        this.dir = dir;
        this.segmentNanos = segmentNanos;
    }

    /**
     * Starts the always-on profile.
     *
     * @param dir          where segments are kept; created, and emptied of segments at close
     * @param segmentNanos length of one segment
     */
    static ContinuousProfile start(final AsyncProfiler profiler, final Path dir, final long segmentNanos, final long now)
        throws IOException {
        Files.createDirectories(dir);
        final ContinuousProfile profile = new ContinuousProfile(profiler, dir, segmentNanos);
        profile.startSegment(now);
        return profile;
    }

    private void startSegment(final long now) throws IOException {
        current = dir.resolve("segment." + sequence++ + ".jfr");
        currentStart = now;
        jdkEvents = JfrSampling.start(profiler, EVENTS, current);
    }

    /** Ends the current segment and starts the next once the segment's length has passed. */
    void rotateIfDue(final long now) throws IOException {
        if (now - currentStart < segmentNanos) {
            return;
        }
        JfrSampling.stop(profiler, current);
        done.addLast(new Segment(current, currentStart, now));
        while (done.size() > KEPT) {
            Files.deleteIfExists(done.removeFirst().file());
        }
        startSegment(now);
    }

    /**
     * Ends the profile early, at the host's exit: the running segment is stopped and kept, and no
     * other starts, so a window still waiting for its segments is written with those there are.
     */
    void finish(final long now) throws IOException {
        if (current == null) {
            return;
        }
        final Path last = current;
        current = null;
        done.addLast(new Segment(last, currentStart, now));
        try {
            JfrSampling.stop(profiler, last);
        } catch (final IOException e) {
            // As a capture's (see Capture.run): async-profiler may have stopped with the JDK's
            // recorder and written the segment itself; writing the window tells whether it is whole.
        }
    }

    /** Whether {@link #finish} ended the profile before the given segment would have ended. */
    boolean cutShort(final Segment segment) {
        return current == null && segment == done.peekLast();
    }

    /**
     * The segments that make the window around a trigger, once all of them are finished (or,
     * after {@link #finish}, those there are).
     *
     * @param triggerNanos when the trigger fired, on {@link System#nanoTime()}'s clock
     * @return the segments in time order; empty while the window is still being sampled; null
     *     when the trigger's segment is no longer kept (the window is lost)
     */
    List<Segment> windowAround(final long triggerNanos) {
        return windowAround(new ArrayList<>(done), triggerNanos, current == null);
    }

    /**
     * {@link #windowAround(long)} among the given finished segments, oldest first.
     *
     * @param finished true when no segment will follow these: a window that would wait for one is
     *                 written short
     */
    static List<Segment> windowAround(final List<Segment> segments, final long triggerNanos, final boolean finished) {
        for (int i = 0; i < segments.size(); i++) {
            final Segment own = segments.get(i);
            if (triggerNanos >= own.endNanos()) {
                continue;
            }
            if (triggerNanos < own.startNanos() && i == 0) {
                return null;
            }
            final boolean needsNext = triggerNanos - own.startNanos() > (own.endNanos() - own.startNanos()) / 2;
            if (needsNext && i + 1 == segments.size()) {
                return finished ? segments.subList(Math.max(0, i - 1), i + 1) : List.of();
            }
            return segments.subList(Math.max(0, i - 1), needsNext ? i + 2 : i + 1);
        }
        return List.of();
    }

    /** Writes a window's segments one after the other into one JFR file. */
    static void join(final List<Segment> window, final Path jfr, final CaptureOutput.Opener opener) throws IOException {
        try (OutputStream out = opener.open(jfr)) {
            for (final Segment segment : window) {
                Files.copy(segment.file(), out);
            }
        }
    }

    /** Whether the JDK's and mech's events are synchronised into the segments. */
    boolean jdkEvents() {
        return jdkEvents;
    }

    /** Stops the profile and removes the segments. */
    @Override
    public void close() throws IOException {
        try {
            if (current != null) {
                JfrSampling.stop(profiler, current);
            }
        } finally {
            removeSegments(dir);
        }
    }

    /**
     * Removes a continuous profile's directory and its segments: at its close, or from the
     * thread that stops the profiler when the profiler's own thread missed the exit's deadline (on
     * a loaded machine the segments stayed behind). A segment async-profiler still writes goes
     * with its name; what it writes after is unlinked.
     *
     * @param dir the profile's directory; nothing happens when it is gone
     */
    static void removeSegments(final Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (final Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(dir);
    }
}
