package io.mech.probes.profiler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import one.profiler.AsyncProfiler;

/**
 * Captures on trigger: one daemon thread, {@code mech-profiler}, polls its trigger sources,
 * and when one reports trouble outside the cooldown it takes a capture on the spot.
 *
 * <p>Guarantees: trigger sources run on this thread only, so the places they read (the hiccup
 * meter's ring, the lock probe's snapshot) see no new work on their own threads. The native
 * library loads at the first capture, not before; if it cannot, one warning goes out and the
 * profiler stops, leaving the rest of mech and the host running. At most one capture runs at a
 * time, one starts at most once per cooldown, and at most {@code maxFiles} stay on disk.
 */
public final class Profiler implements AutoCloseable {

    /** How often the trigger sources are polled. */
    public static final long POLL_MILLIS = 50;

    /**
     * A capture taken.
     *
     * @param when    local time of its start
     * @param trigger the source that asked for it
     * @param detail  what that source saw
     * @param html    its flame graph
     */
    public record Taken(LocalDateTime when, String trigger, String detail, Path html) {
    }

    private final ProfilerSettings settings;
    private final List<TriggerSource> sources;
    private final Consumer<String> warnings;
    private final List<Taken> taken = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile boolean failed;
    private volatile long triggersInCooldown;
    private AsyncProfiler profiler;
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
        while (!stopped && !failed) {
            LockSupport.parkNanos(POLL_MILLIS * 1_000_000L);
            try {
                poll(System.nanoTime());
            } catch (final InterruptedException e) {
                return;
            } catch (final Throwable t) {
                warnings.accept("profiler stopped: " + t);
                failed = true;
            }
        }
    }

    private void poll(final long now) throws InterruptedException {
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
            capture(source.name(), detail);
        }
    }

    private void capture(final String trigger, final String detail) throws InterruptedException {
        final LocalDateTime when = LocalDateTime.now();
        try {
            if (profiler == null) {
                profiler = NativeProfiler.load(settings.extractDir());
            }
            Files.createDirectories(settings.dir());
            final Path html = CaptureFiles.name(settings.dir(), when, ProcessHandle.current().pid(), trigger);
            Capture.run(profiler, settings.event(), settings.captureMillis(), html, trigger);
            taken.add(new Taken(when, trigger, detail, html));
            CaptureFiles.prune(settings.dir(), settings.maxFiles());
        } catch (final IOException e) {
            warnings.accept("profiler off: " + e.getMessage());
            failed = true;
        }
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

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}
