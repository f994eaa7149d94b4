package io.mech.probes.profiler;

import java.io.IOException;
import java.util.function.Consumer;
import one.profiler.AsyncProfiler;

/**
 * A continuous async-profiler session limited to safepoint synchronisation windows: its
 * {@code ttsp} mode hooks the JVM's {@code SafepointSynchronize::begin} and
 * {@code RuntimeService::record_safepoint_synchronized} (symbols of libjvm.so's own table, which
 * the JDKs here carry) and samples only between them, so the threads on the CPU in those
 * windows are the ones the safepoint waited for. CPU samples, because a thread already stopped
 * at the safepoint uses none; one every 10 ms of CPU ({@link #EVENTS} says why), so that a window
 * is sampled in proportion to its length.
 *
 * <p>async-profiler runs one session at a time, so a capture on trigger {@link #pause pauses}
 * this one and {@link #resume resumes} it once written, and a capture of {@code mech profile}
 * borrows the library through {@link #lend}: the samples taken until the pause are kept, and
 * the capture's own seconds go unsampled for culprits.
 *
 * <p>Thread contract: the profiler thread starts, harvests, pauses and resumes the session; the
 * attach listener's thread of {@code mech profile} may {@link #lend} it meanwhile. Both do so
 * under this object's monitor, which a lend holds for its whole capture, so the profiler thread's
 * next use of the session waits for it. {@link #culprits} takes no lock: it reads a snapshot
 * published through a volatile field.
 */
final class TtspSampling {

    /**
     * async-profiler's options: a CPU sample every 10 ms of a thread's CPU time, kept only while a
     * safepoint waits. The CPU timer runs outside the windows too, so its interval is what the
     * session costs: at 1 ms it cost the CPU-bound padded kernel 2.5% standalone (a signal per
     * thread per millisecond, every one of them dropped outside the windows) and 3.5 to 8% in the
     * bench; at 10 ms, nothing measurable. A window catches a running thread's sample with a
     * chance of its length over the interval, so samples weigh the culprits by the time they held
     * safepoints up: 30 ms windows still give three each, and the sub-millisecond windows of a
     * healthy JVM seldom give any. Quiet, because a session still running when the JVM dies has
     * async-profiler print that it stopped on the host's standard output; no log, because a
     * start that meets a thread as it ends prints a warning there ("perf_event_open for TID ...
     * failed: No such process", after a short host's last line on JDK 25).
     */
    static final String EVENTS = "event=cpu,interval=10ms,jstackdepth=128,ttsp,quiet," + JfrSampling.NO_LOG;

    /** A dump of the samples so far, without async-profiler's own notes ("no samples were collected") on the host's output. */
    private static final String DUMP = "collapsed,ann,dot," + JfrSampling.NO_LOG;

    /** How often the counts are brought up to date for the report. */
    static final long HARVEST_NANOS = 1_000_000_000L;

    /**
     * The system property in which the session publishes, in epoch milliseconds, when it first
     * sampled: async-profiler loads a second and more after start-up, later on a busy machine, and
     * safepoint waits before then have no culprit ({@code jcmd <pid> VM.system_properties} reads it).
     */
    static final String SINCE_PROPERTY = "io.mech.profiler.ttsp.since";

    /** Culprits kept for the report. */
    private static final int TOP = 5;

    private final AsyncProfiler profiler;
    private final Consumer<String> warnings;
    /** Counts of the sessions stopped so far. */
    private final CulpritCounts stopped = new CulpritCounts();
    /** Counts of the running session, rebuilt from its dump at each harvest. */
    private final CulpritCounts running = new CulpritCounts();
    private volatile TtspCulprits published = TtspCulprits.NONE;
    private boolean sampling;
    private String unavailable;
    private long harvested;

    private TtspSampling(final AsyncProfiler profiler, final Consumer<String> warnings) {
        this.profiler = profiler;
        this.warnings = warnings;
    }

    /**
     * Starts sampling; a refusal is one warning, and the report then says why no culprit is named.
     *
     * @param now {@link System#nanoTime()}
     */
    static TtspSampling start(final AsyncProfiler profiler, final Consumer<String> warnings, final long now) {
        final TtspSampling sampling = new TtspSampling(profiler, warnings);
        sampling.resume(now);
        if (sampling.sampling) {
            System.setProperty(SINCE_PROPERTY, Long.toString(System.currentTimeMillis()));
        }
        return sampling;
    }

    /** Brings the published counts up to date once {@link #HARVEST_NANOS} have passed since the last time. */
    synchronized void harvestIfDue(final long now) {
        if (!sampling || now - harvested < HARVEST_NANOS) {
            return;
        }
        harvested = now;
        try {
            final String dump = profiler.execute(DUMP);
            running.clear();
            running.addCollapsed(dump);
            publish();
        } catch (final IOException | IllegalStateException | IllegalArgumentException e) {
            try {
                // Left running, the session would hold async-profiler against every capture.
                profiler.execute("stop");
            } catch (final IOException | IllegalStateException | IllegalArgumentException alreadyStopped) {
                // Then nothing holds it.
            }
            refused("async-profiler did not dump the time-to-safepoint samples: " + e.getMessage());
        }
    }

    /** Stops the session for a capture, or at the end, keeping what it sampled. */
    synchronized void pause() {
        if (!sampling) {
            return;
        }
        sampling = false;
        try {
            profiler.execute("stop");
            final String dump = profiler.execute(DUMP);
            running.clear();
            running.addCollapsed(dump);
        } catch (final IOException | IllegalStateException | IllegalArgumentException e) {
            // What the session sampled since its last harvest is lost; the harvested counts stand.
        }
        stopped.addAll(running);
        running.clear();
        publish();
    }

    /** Starts the session again after a capture; nothing once async-profiler refused it. */
    synchronized void resume(final long now) {
        if (sampling || unavailable != null) {
            return;
        }
        try {
            profiler.execute("start," + EVENTS);
            sampling = true;
            harvested = now;
        } catch (final IOException | IllegalStateException | IllegalArgumentException e) {
            refused("async-profiler refused time-to-safepoint sampling (" + EVENTS + "): " + e.getMessage());
        }
    }

    /**
     * Pauses the session while another capture in this JVM drives async-profiler, and resumes it
     * afterwards, unless it was paused before (a capture on trigger is under way, which the
     * borrower then meets as async-profiler's refusal).
     *
     * @param borrower the capture, run on the calling thread
     * @return what it returns
     * @throws IOException what it throws
     */
    synchronized long lend(final Profiler.Borrower borrower) throws IOException {
        final boolean wasSampling = sampling;
        pause();
        try {
            return borrower.run();
        } finally {
            if (wasSampling) {
                resume(System.nanoTime());
            }
        }
    }

    /** The culprits as last published. */
    TtspCulprits culprits() {
        return published;
    }

    private void refused(final String why) {
        sampling = false;
        unavailable = why;
        warnings.accept("profiler: " + why + "; the report names no time-to-safepoint culprit");
        publish();
    }

    private void publish() {
        final CulpritCounts all = new CulpritCounts();
        all.addAll(stopped);
        all.addAll(running);
        published = all.snapshot(TOP, unavailable);
    }
}
