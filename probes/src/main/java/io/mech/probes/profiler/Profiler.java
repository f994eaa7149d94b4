package io.mech.probes.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import one.profiler.AsyncProfiler;

/**
 * Captures on trigger: one daemon thread, {@code mech-profiler}, polls its trigger sources, and
 * when one reports trouble outside the cooldown it takes a capture: in trigger mode it starts
 * sampling on the spot; in continuous mode it writes out the window of the always-on profile
 * around the trigger once that window is sampled (see {@link ContinuousProfile}).
 *
 * <p>Guarantees: trigger sources run on this thread only, so the places they read (the hiccup
 * meter's ring, the lock probe's snapshot) see no new work on their own threads. The native
 * library loads at the first capture, not before; if it cannot, one warning goes out and the
 * profiler stops, leaving the rest of mech and the host running. At most one capture runs at a
 * time, one starts at most once per cooldown, and at most {@code maxFiles} stay on disk.
 */
public final class Profiler implements AutoCloseable {

    /** How long closing waits for the profiler thread to stop async-profiler and clean up. */
    private static final long CLOSE_MILLIS = 2_000;

    /** How often the trigger sources are polled. */
    public static final long POLL_MILLIS = 50;

    /**
     * A capture taken.
     *
     * @param when    local time of its start
     * @param trigger the source that asked for it
     * @param detail  what that source saw
     * @param html    its flame graph; the JFR file and metadata are beside it
     */
    public record Taken(LocalDateTime when, String trigger, String detail, Path html) {
    }

    /** A trigger whose window the continuous profile is still sampling. */
    private record Pending(LocalDateTime when, long nanos, String trigger, String detail) {
    }

    private final ProfilerSettings settings;
    private final List<TriggerSource> sources;
    private final Consumer<String> warnings;
    private final List<Taken> taken = new CopyOnWriteArrayList<>();
    private final List<Pending> pending = new ArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile boolean failed;
    private volatile long triggersInCooldown;
    private AsyncProfiler profiler;
    private ContinuousProfile continuous;
    private long lastStartNanos;
    private boolean started;

    private Profiler(final ProfilerSettings settings, final List<TriggerSource> sources, final Consumer<String> warnings) {
        this.settings = settings;
        this.sources = List.copyOf(sources);
        this.warnings = warnings;
        this.thread = new Thread(this::run, "mech-profiler");
        thread.setDaemon(true);
    }

    /** Starts polling the sources; nothing native is loaded until the first capture. */
    public static Profiler start(final ProfilerSettings settings, final List<TriggerSource> sources,
        final Consumer<String> warnings) {
        final Profiler profiler = new Profiler(settings, sources, warnings);
        profiler.thread.start();
        return profiler;
    }

    private void run() {
        try {
            if (settings.continuous()) {
                continuous = ContinuousProfile.start(loaded(), settings.dir().resolve(".continuous." + ProcessHandle.current().pid()),
                    settings.captureMillis() * 1_000_000L, System.nanoTime());
            }
            while (!stopped && !failed) {
                LockSupport.parkNanos(POLL_MILLIS * 1_000_000L);
                poll(System.nanoTime());
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final IOException e) {
            warnings.accept("profiler off: " + e.getMessage());
            failed = true;
        } catch (final Throwable t) {
            warnings.accept("profiler stopped: " + t);
            failed = true;
        } finally {
            closeContinuous();
        }
    }

    private AsyncProfiler loaded() throws IOException {
        if (profiler == null) {
            profiler = NativeProfiler.load(settings.extractDir());
        }
        return profiler;
    }

    private void poll(final long now) throws InterruptedException, IOException {
        if (continuous != null) {
            continuous.rotateIfDue(now);
            writePending(now);
        }
        for (final TriggerSource source : sources) {
            final String detail = source.check(now);
            if (detail == null || stopped) {
                continue;
            }
            if (started && now - lastStartNanos < settings.cooldownNanos()) {
                triggersInCooldown++;
                continue;
            }
            started = true;
            lastStartNanos = now;
            if (continuous != null) {
                pending.add(new Pending(LocalDateTime.now(), now, source.name(), detail));
            } else {
                capture(source.name(), detail);
            }
        }
    }

    private void capture(final String trigger, final String detail) throws InterruptedException, IOException {
        final LocalDateTime when = LocalDateTime.now();
        final AsyncProfiler loaded = loaded();
        Files.createDirectories(settings.dir());
        final Path html = CaptureFiles.name(settings.dir(), when, ProcessHandle.current().pid(), trigger);
        Capture.run(loaded, settings.event(), settings.captureMillis(), html, trigger, "trigger");
        taken(new Taken(when, trigger, detail, html));
    }

    private void writePending(final long now) throws IOException {
        for (final Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            final Pending trigger = it.next();
            final List<ContinuousProfile.Segment> window = continuous.windowAround(trigger.nanos());
            if (window == null) {
                warnings.accept("profiler: the window around the " + trigger.trigger() + " trigger of " + trigger.when()
                    + " was rotated out before it could be written");
                it.remove();
            } else if (!window.isEmpty()) {
                it.remove();
                final Path html = CaptureFiles.name(settings.dir(), trigger.when(), ProcessHandle.current().pid(), trigger.trigger());
                final Path jfr = CaptureFiles.jfrOf(html);
                ContinuousProfile.join(window, jfr);
                final long first = window.get(0).startNanos();
                final long millis = (window.get(window.size() - 1).endNanos() - first) / 1_000_000;
                CaptureOutput.write(jfr, html, new CaptureOutput.Info(trigger.trigger(), "continuous",
                    Instant.now().minusNanos(now - first), millis, ContinuousProfile.EVENTS, ProfileEvent.WALL,
                    continuous.jdkEvents()), profiler.getVersion());
                taken(new Taken(trigger.when(), trigger.trigger(), trigger.detail(), html));
            }
        }
    }

    private void taken(final Taken capture) throws IOException {
        taken.add(capture);
        CaptureFiles.prune(settings.dir(), settings.maxFiles());
    }

    private void closeContinuous() {
        if (continuous == null) {
            return;
        }
        try {
            continuous.close();
        } catch (final IOException | RuntimeException e) {
            warnings.accept("profiler: the continuous profile did not stop cleanly: " + e.getMessage());
        }
        continuous = null;
    }

    /** The captures taken so far, oldest first (some may since have been pruned from disk). */
    public List<Taken> taken() {
        return new ArrayList<>(taken);
    }

    /** Triggers that came inside the cooldown and took no capture. */
    public long triggersInCooldown() {
        return triggersInCooldown;
    }

    /** True once the profiler turned itself off (it warned why). */
    public boolean failed() {
        return failed;
    }

    /** Stops the profiler thread, waiting a little for it to stop async-profiler and clean up. */
    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(CLOSE_MILLIS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
