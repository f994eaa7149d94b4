package io.mech.probes.profiler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
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
 * library loads at the first capture, or when the profiler starts if an always-on session needs
 * it (continuous mode, time-to-safepoint sampling); if it cannot, one warning goes out and the
 * profiler stops, leaving the rest of mech and the host running. At most one capture runs at a
 * time, one starts at most once per cooldown, and at most {@code maxFiles} stay on disk.
 *
 * <p>At the host's exit, {@link #close(long)} cuts a capture that is still sampling short, and
 * the profiler thread writes it (flame graph, JFR file, metadata) as far as it was sampled;
 * a continuous-mode window still waiting for its segments is written with those there are. Both
 * are listed as cut short in {@link #taken()}. One whose files are not written by the deadline,
 * or cannot be written at all (the JDK's recorder stops its recordings in a shutdown hook of its
 * own, and may take async-profiler's with it), is listed in {@link #unfinished()} instead, and
 * what it had written is removed: a capture is never left half-written on disk unmentioned. The
 * thread is never interrupted: async-profiler's converter reads through a file channel, which an
 * interrupt closes.
 *
 * <p>With {@link ProfilerSettings#ttsp()} in trigger mode, the library loads when the profiler
 * starts, and between captures async-profiler samples the threads that keep safepoints waiting
 * ({@link TtspSampling}); a capture pauses that session and resumes it once written, and at the
 * end it is stopped with the rest, within the same deadline. {@link #ttspCulprits()} publishes
 * what it found.
 */
public final class Profiler implements AutoCloseable {

    /** The profiler running in this JVM, for a capture of {@code mech profile} to borrow async-profiler from. */
    private static final AtomicReference<Profiler> IN_THIS_JVM = new AtomicReference<>();

    /** How long {@link #close()} waits for the profiler thread to stop async-profiler and write. */
    private static final long CLOSE_MILLIS = 2_000;

    /** How often the trigger sources are polled. */
    public static final long POLL_MILLIS = 50;

    /** The continuous profile's directory in profiler.dir, by the JVM's pid. */
    private static final String CONTINUOUS_DIR = ".continuous.";

    /**
     * A capture taken.
     *
     * @param when     local time of its start
     * @param trigger  the source that asked for it
     * @param detail   what that source saw
     * @param html     its flame graph; the JFR file and metadata are beside it
     * @param millis   how long it sampled (in continuous mode, the length of its window)
     * @param cutShort whether the host's exit ended its sampling before its length
     */
    public record Taken(LocalDateTime when, String trigger, String detail, Path html, long millis, boolean cutShort) {
    }

    /**
     * A capture the host's exit cut short whose files were not written.
     *
     * @param when    local time of its start
     * @param trigger the source that asked for it
     * @param detail  what that source saw
     * @param reason  why they were not: not in time, or what failed
     * @param removed the partial files it had written, removed; empty when it had written none
     */
    public record Unfinished(LocalDateTime when, String trigger, String detail, String reason, List<Path> removed) {
    }

    /** A trigger whose window the continuous profile is still sampling. */
    private record Pending(LocalDateTime when, long nanos, String trigger, String detail) {
    }

    /** The capture whose files the profiler thread is writing, published for {@link #close(long)}. */
    private record InFlight(LocalDateTime when, String trigger, String detail, Path html) {
    }

    private final ProfilerSettings settings;
    private final List<TriggerSource> sources;
    private final Consumer<String> warnings;
    private final List<Taken> taken = new CopyOnWriteArrayList<>();
    private final List<Unfinished> unfinished = new CopyOnWriteArrayList<>();
    /** Guarded by this, so that {@link #close(long)} can list what the deadline left unwritten. */
    private final List<Pending> pending = new ArrayList<>();
    private final Thread thread;
    private final BooleanSupplier stopping = () -> this.stopped;
    private volatile boolean stopped;
    private volatile boolean failed;
    private volatile long triggersInCooldown;
    /** Guarded by this: a capture is either listed as taken or removed as unfinished, never both. */
    private InFlight inFlight;
    /** Guarded by this: set once the deadline passed; the profiler thread then lists nothing more. */
    private boolean abandoned;
    /** Guarded by this: only the first close waits. */
    private boolean closed;
    private AsyncProfiler profiler;
    private ContinuousProfile continuous;
    /** Written once by the profiler thread before it polls; read by {@link #ttspCulprits()}. */
    private volatile TtspSampling ttsp;
    private long lastStartNanos;
    private boolean started;

    private Profiler(final ProfilerSettings settings, final List<TriggerSource> sources, final Consumer<String> warnings) {
        this.settings = settings;
        this.sources = List.copyOf(sources);
        this.warnings = warnings;
        this.thread = new Thread(this::run, "mech-profiler");
        thread.setDaemon(true);
    }

    /**
     * A profiler not started: nothing runs until {@link #start}, so that a caller whose set-up
     * fails in between (a full heap) leaves no thread on the sources and may make another.
     */
    public static Profiler of(final ProfilerSettings settings, final List<TriggerSource> sources, final Consumer<String> warnings) {
        return new Profiler(settings, sources, warnings);
    }

    /**
     * Starts polling the sources on the profiler thread, which loads the library when something
     * needs it first; once at most.
     *
     * @return this profiler
     */
    public Profiler start() {
        IN_THIS_JVM.set(this);
        thread.start();
        return this;
    }

    /**
     * A capture that drives async-profiler itself, run while mech's own session lends it.
     */
    @FunctionalInterface
    public interface Borrower {
        /**
         * @return what the capture returns (how long it sampled)
         * @throws IOException when async-profiler refuses or a file cannot be written
         */
        long run() throws IOException;
    }

    /**
     * Runs a capture that drives async-profiler itself ({@code mech profile}'s) on the calling
     * thread, lending it the library: the time-to-safepoint session, when this JVM's profiler
     * runs one, pauses meanwhile and resumes afterwards. Without a profiler in this JVM, or
     * without such a session, the capture simply runs (and meets async-profiler's refusal while a
     * capture on trigger or the continuous profile holds it).
     *
     * @param borrower the capture
     * @return what it returns
     * @throws IOException what it throws
     */
    public static long lendToCapture(final Borrower borrower) throws IOException {
        final Profiler running = IN_THIS_JVM.get();
        final TtspSampling sampling = running == null ? null : running.ttsp;
        return sampling == null ? borrower.run() : sampling.lend(borrower);
    }

    private void run() {
        try {
            if (settings.continuous()) {
                continuous = ContinuousProfile.start(loaded(), settings.dir().resolve(CONTINUOUS_DIR + ProcessHandle.current().pid()),
                    settings.captureMillis() * 1_000_000L, System.nanoTime());
            } else if (settings.ttsp()) {
                final AsyncProfiler library = loaded();
                // The library loads for a while: a host exiting meanwhile gets no session to stop.
                if (!stopped) {
                    ttsp = TtspSampling.start(library, warnings, System.nanoTime());
                }
            }
            while (!stopped && !failed) {
                LockSupport.parkNanos(POLL_MILLIS * 1_000_000L);
                poll(System.nanoTime());
            }
            if (continuous != null && anyPending()) {
                final long now = System.nanoTime();
                continuous.finish(now);
                writePending(now);
            }
        } catch (final IOException e) {
            if (stopped) {
                // Cut short at exit and then failed: the report lists it, its partial files removed.
                unfinishedAtExit("its files could not be written (" + e.getMessage() + ")");
            } else {
                warnings.accept("profiler off: " + e.getMessage());
                failed = true;
            }
        } catch (final Throwable t) {
            warnings.accept("profiler stopped: " + t);
            failed = true;
        } finally {
            closeContinuous();
            final TtspSampling sampling = ttsp;
            if (sampling != null) {
                sampling.pause();
            }
        }
    }

    private AsyncProfiler loaded() throws IOException {
        if (profiler == null) {
            profiler = NativeProfiler.load(settings.extractDir());
        }
        return profiler;
    }

    private void poll(final long now) throws IOException {
        if (continuous != null) {
            continuous.rotateIfDue(now);
            writePending(now);
        }
        final TtspSampling sampling = ttsp;
        if (sampling != null) {
            sampling.harvestIfDue(now);
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
                synchronized (this) {
                    pending.add(new Pending(LocalDateTime.now(), now, source.name(), detail));
                }
            } else {
                capture(source.name(), detail);
            }
        }
    }

    private void capture(final String trigger, final String detail) throws IOException {
        final LocalDateTime when = LocalDateTime.now();
        final Path html = CaptureFiles.name(settings.dir(), when, ProcessHandle.current().pid(), trigger);
        // In flight from here: the library's first load takes a while, and an exit meanwhile still lists the trigger.
        if (!begin(new InFlight(when, trigger, detail, html), null)) {
            return;
        }
        final AsyncProfiler loaded = loaded();
        Files.createDirectories(settings.dir());
        final TtspSampling sampling = ttsp;
        if (sampling != null) {
            sampling.pause();
        }
        final long millis;
        try {
            millis = Capture.run(loaded, settings.event(), settings.captureMillis(), html, trigger, "trigger", stopping, this::openUnlessAbandoned);
        } catch (final IOException e) {
            removeIfAbandoned(html);
            throw e;
        } finally {
            if (sampling != null && !stopped) {
                sampling.resume(System.nanoTime());
            }
        }
        taken(new Taken(when, trigger, detail, html, millis, millis < settings.captureMillis()));
    }

    private void writePending(final long now) throws IOException {
        for (final Pending trigger : pendingNow()) {
            final List<ContinuousProfile.Segment> window = continuous.windowAround(trigger.nanos());
            if (window == null) {
                warnings.accept("profiler: the window around the " + trigger.trigger() + " trigger of " + trigger.when()
                    + " was rotated out before it could be written");
                synchronized (this) {
                    pending.remove(trigger);
                }
            } else if (!window.isEmpty()) {
                final Path html = CaptureFiles.name(settings.dir(), trigger.when(), ProcessHandle.current().pid(), trigger.trigger());
                if (!begin(new InFlight(trigger.when(), trigger.trigger(), trigger.detail(), html), trigger)) {
                    return;
                }
                final Path jfr = CaptureFiles.jfrOf(html);
                ContinuousProfile.join(window, jfr, this::openUnlessAbandoned);
                final long first = window.get(0).startNanos();
                final long millis = (window.get(window.size() - 1).endNanos() - first) / 1_000_000;
                final boolean cutShort = continuous.cutShort(window.get(window.size() - 1));
                CaptureOutput.write(jfr, html, new CaptureOutput.Info(trigger.trigger(), "continuous",
                    Instant.now().minusNanos(now - first), millis, ContinuousProfile.EVENTS, ProfileEvent.WALL,
                    continuous.jdkEvents(), cutShort), profiler.getVersion(), this::openUnlessAbandoned);
                taken(new Taken(trigger.when(), trigger.trigger(), trigger.detail(), html, millis, cutShort));
            }
        }
    }

    private synchronized boolean anyPending() {
        return !pending.isEmpty();
    }

    private synchronized List<Pending> pendingNow() {
        return new ArrayList<>(pending);
    }

    /**
     * Publishes the capture about to write files, taking it off the pending windows if it is one;
     * false once the deadline has passed.
     */
    private synchronized boolean begin(final InFlight capture, final Pending from) {
        if (abandoned) {
            return false;
        }
        pending.remove(from);
        inFlight = capture;
        return true;
    }

    /**
     * Creates one of the capture's files, unless the exit has given up on it: the exit removes
     * the files there are under this lock, so none may appear after (the host does not wait for
     * the writer, which goes on into a file already unlinked).
     */
    private synchronized OutputStream openUnlessAbandoned(final Path file) throws IOException {
        if (abandoned) {
            throw new IOException("cut short at exit");
        }
        return Files.newOutputStream(file);
    }

    /** Lists a capture whose files are written, unless the deadline passed meanwhile. */
    private void taken(final Taken capture) throws IOException {
        synchronized (this) {
            inFlight = null;
            if (abandoned) {
                // close(long) listed it as unfinished and removed its files; remove what came after.
                remove(capture.html());
                return;
            }
            taken.add(capture);
        }
        CaptureFiles.prune(settings.dir(), settings.maxFiles());
    }

    /**
     * Removes a capture's files once the exit has given up on it: async-profiler writes the JFR
     * file itself as it stops, after the exit may have removed it (ProfilerCloseTest found one
     * left beside a busy build).
     */
    private synchronized void removeIfAbandoned(final Path html) {
        if (abandoned) {
            remove(html);
        }
    }

    /** Removes a capture's files, returning those that were there. */
    private static List<Path> remove(final Path html) {
        final List<Path> removed = new ArrayList<>(3);
        for (final Path file : List.of(CaptureFiles.jfrOf(html), html, CaptureFiles.metadataOf(html))) {
            try {
                if (Files.deleteIfExists(file)) {
                    removed.add(file);
                }
            } catch (final IOException e) {
                // Left on disk: the report names only what was removed, and the file stays a capture's name.
            }
        }
        return removed;
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

    /** Captures the host's exit cut short that were not written by the deadline. */
    public List<Unfinished> unfinished() {
        return new ArrayList<>(unfinished);
    }

    /**
     * The methods that kept safepoints waiting, as sampled so far; {@link TtspCulprits#NONE} when
     * {@link ProfilerSettings#ttsp()} is off or sampling has not begun, and with
     * {@link TtspCulprits#unavailable()} saying why when it could not run.
     */
    public TtspCulprits ttspCulprits() {
        final TtspSampling sampling = ttsp;
        if (sampling != null) {
            return sampling.culprits();
        }
        if (settings.ttsp() && settings.continuous()) {
            return new TtspCulprits(0, List.of(), "not sampled in profiler.mode=continuous, whose profile holds async-profiler");
        }
        if (settings.ttsp() && failed) {
            return new TtspCulprits(0, List.of(), "not sampled: the profiler turned itself off");
        }
        return TtspCulprits.NONE;
    }

    /** Triggers that came inside the cooldown and took no capture. */
    public long triggersInCooldown() {
        return triggersInCooldown;
    }

    /** True once the profiler turned itself off (it warned why). */
    public boolean failed() {
        return failed;
    }

    /** {@link #close(long)} with a deadline a little way off. */
    @Override
    public void close() {
        close(System.nanoTime() + CLOSE_MILLIS * 1_000_000L);
    }

    /**
     * Stops the profiler, at the host's exit: a capture still sampling is cut short and written
     * as far as it got, if the profiler thread can do so by the deadline; otherwise it is listed
     * in {@link #unfinished()} and its partial files removed. Called from any thread; only the
     * first call waits, so a later one (a part's close after its settle) returns at once.
     *
     * @param deadlineNanos {@link System#nanoTime()} by which this returns
     */
    public void close(final long deadlineNanos) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        IN_THIS_JVM.compareAndSet(this, null);
        stopped = true;
        LockSupport.unpark(thread);
        long remaining;
        while (thread.isAlive() && (remaining = deadlineNanos - System.nanoTime()) > 0) {
            try {
                TimeUnit.NANOSECONDS.timedJoin(thread, remaining);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        synchronized (this) {
            if (thread.isAlive()) {
                abandoned = true;
                unfinishedAtExit("not written in time");
            } else {
                return;
            }
        }
        if (settings.continuous()) {
            try {
                ContinuousProfile.removeSegments(settings.dir().resolve(CONTINUOUS_DIR + ProcessHandle.current().pid()));
            } catch (final IOException | RuntimeException e) {
                warnings.accept("profiler: the continuous profile's segments were not removed at exit: " + e.getMessage());
            }
        }
    }

    /** Lists the capture in flight, and the windows still waiting, as unfinished, removing what they wrote. */
    private synchronized void unfinishedAtExit(final String reason) {
        if (inFlight != null) {
            unfinished.add(new Unfinished(inFlight.when(), inFlight.trigger(), inFlight.detail(), reason, remove(inFlight.html())));
            inFlight = null;
        }
        for (final Pending window : pending) {
            unfinished.add(new Unfinished(window.when(), window.trigger(), window.detail(), reason, List.of()));
        }
        pending.clear();
    }
}
