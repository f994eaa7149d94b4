package io.mech.probes.locks;

import java.lang.instrument.Instrumentation;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import jdk.jfr.consumer.RecordingStream;

/**
 * Monitor inflation and lock contention, by lock class and by call site (issue 8).
 *
 * <p>Sources: mech's JFR stream of monitor enter, j.u.c. lock park, monitor wait and monitor
 * inflation events ({@link LockJfr}); advice on AbstractQueuedSynchronizer that counts every
 * contended ReentrantLock and ReentrantReadWriteLock acquisition, however short
 * ({@link AqsCounting}); without JFR, ThreadMXBean samples ({@link LockSampler}). With JFR on
 * demand ({@link #onDemand}) the JFR events count from the first contention that
 * {@link ContentionWatch} sees, when mech's stream opens and comes to {@link #subscribe}.
 *
 * <p>Guarantees: {@link #start} never throws into the host and returns quickly; the advice is
 * woven on a daemon thread ({@code mech-locks-install}), so ByteBuddy's loading stays off the
 * caller's thread. Every thread is a daemon named mech-locks-*, but for the shutdown hook
 * {@code mech-locks-exit}, which only freezes the figures: once the host begins to exit, what its
 * threads do is exit bookkeeping (the JVM joining the shutdown hooks, mech's among them), not the
 * run's contention. Events JFR has not delivered by then are left out with it. {@link #snapshot}
 * may be called from any thread at any time; {@link #close} stops the sampler and removes the
 * advice.
 */
public final class LockProbe implements AutoCloseable {

    private final LockProbeSettings settings;
    private final LockTables tables;
    private final LockSampler sampler;
    private final LockSnapshot.Source source;
    private final CountDownLatch installed = new CountDownLatch(1);
    /** Set once at start under JFR on demand, null otherwise; volatile, for the watch's own thread may reach {@link #subscribe} first. */
    private volatile ContentionWatch watch;
    /** Guarded by {@code this}: when the probe began to read JFR, in ms since the epoch; 0 before. */
    private long jfrSince;
    private AqsCounting counting;
    private boolean closed;
    private Thread exitHook;
    /** The counted acquisitions when the host began to exit; null before. */
    private volatile List<JucContention> countedAtExit;
    /** Set by the exit hook before it reads the counts: from then on a failed install is not news. */
    private volatile boolean exitBegun;

    private LockProbe(final LockProbeSettings settings, final LockTables tables, final LockSampler sampler) {
        this.settings = settings;
        this.tables = tables;
        this.sampler = sampler;
        this.source = sampler == null ? LockSnapshot.Source.JFR : LockSnapshot.Source.SAMPLED;
    }

    /**
     * Starts the probe on JFR at once, or without JFR on ThreadMXBean's samples.
     *
     * @param inst     the agent's Instrumentation, needed to count short j.u.c. contention; may be
     *                 null, which only loses that count (one warning)
     * @param settings thresholds and switches
     * @param stream   mech's JFR stream, not started yet: the caller starts it once every part
     *                 has subscribed, and closes it; null without JFR, when ThreadMXBean samples
     *                 blocked threads instead
     * @param warnings receives one line for each problem
     * @return the running probe, or null (after a warning) when it cannot run at all
     */
    public static LockProbe start(final Instrumentation inst, final LockProbeSettings settings,
                                  final RecordingStream stream, final Consumer<String> warnings) {
        return start(inst, settings, stream, null, warnings);
    }

    /**
     * Starts the probe with JFR on demand: it watches for the first contention
     * ({@link ContentionWatch}), asks for JFR then, and reads it from {@link #subscribe} on.
     *
     * @param demand   told once, from the probe's own thread, why JFR should start; must not block
     * @see #start(Instrumentation, LockProbeSettings, RecordingStream, Consumer)
     */
    public static LockProbe onDemand(final Instrumentation inst, final LockProbeSettings settings, final Consumer<String> demand,
                                     final Consumer<String> warnings) {
        return start(inst, settings, null, demand, warnings);
    }

    private static LockProbe start(final Instrumentation inst, final LockProbeSettings settings, final RecordingStream stream,
                                   final Consumer<String> demand, final Consumer<String> warnings) {
        LockProbe probe = null;
        try {
            final LockTables tables = new LockTables(settings.maxRows());
            if (stream != null) {
                probe = new LockProbe(settings, tables, null);
                probe.subscribe(stream);
            } else if (demand != null) {
                probe = new LockProbe(settings, tables, null);
                probe.watch = ContentionWatch.start(probe::counted, settings.thresholdNanos(), demand, warnings);
            } else {
                probe = new LockProbe(settings, tables, LockSampler.start(tables, warnings));
            }
            probe.hookExit();
            probe.startCounting(inst, warnings);
            return probe;
        } catch (final RuntimeException | LinkageError e) {
            warnings.accept("lock probe not started (" + e + ")");
            return null;
        } catch (final OutOfMemoryError full) {
            // the caller starts the probe again once the heap has room: what this one started stops
            if (probe != null) {
                probe.close();
            }
            throw full;
        }
    }

    /**
     * Reads mech's JFR stream from now on, once: a probe on demand gets it when it opens, whoever
     * asked. Ends the watch.
     *
     * @param stream mech's JFR stream, not started yet
     * @return whether the probe took it: false when it samples, reads JFR already or is closed
     */
    public boolean subscribe(final RecordingStream stream) {
        synchronized (this) {
            if (jfrSince != 0 || closed || sampler != null) {
                return false;
            }
            LockJfr.subscribe(stream, tables, settings.thresholdNanos());
            jfrSince = System.currentTimeMillis();
        }
        final ContentionWatch w = watch;
        if (w != null) {
            w.close();
        }
        return true;
    }

    /**
     * How JFR came to the probe, for the report; null when it read JFR from its start or samples.
     *
     * @param startMillis when the host started, in ms since the epoch
     */
    public String onDemandNote(final long startMillis) {
        final ContentionWatch w = watch;
        if (w == null) {
            return null;
        }
        final long since;
        synchronized (this) {
            since = jfrSince;
        }
        if (since == 0) {
            return w.fired() == null
                ? "no lock contention seen, so no JFR for it: monitor blocks and lock parks are not located "
                    + "(probes.locks.jfr=on records them from the first second)"
                : "JFR asked for, not recording yet: " + w.fired();
        }
        final String why = w.fired() != null ? w.fired() : "another part's request";
        return String.format(Locale.ROOT, "JFR from %.1f s on, for %s; %d monitor block%s before that counted, not located",
            (since - startMillis) / 1e3,
            why, w.blocked(), w.blocked() == 1 ? "" : "s");
    }

    /** Weaves the counting advice on a thread of its own, as the settings say. */
    private void startCounting(final Instrumentation inst, final Consumer<String> warnings) {
        if (!settings.counting()) {
            installed.countDown();
        } else if (inst == null) {
            warnings.accept("no Instrumentation; short j.u.c. lock contention is not counted");
            installed.countDown();
        } else {
            final Thread installer = new Thread(() -> install(inst, warnings), "mech-locks-install");
            installer.setDaemon(true);
            installer.start();
        }
    }

    /** The counting advice's figures so far; empty while it is not woven. */
    private List<JucContention> counted() {
        final AqsCounting c;
        synchronized (this) {
            c = counting;
        }
        return c == null ? List.of() : c.read();
    }

    private void hookExit() {
        final Thread hook = new Thread(this::exiting, "mech-locks-exit");
        try {
            Runtime.getRuntime().addShutdownHook(hook);
            exitHook = hook;
        } catch (final IllegalStateException alreadyExiting) {
            exiting();
        }
    }

    /** Freezes the figures: the host is exiting. */
    void exiting() {
        exitBegun = true;
        countedAtExit = counted();
        tables.exiting();
    }

    /**
     * Weaves the counting, warning of a failure only while the host runs: once the JVM has begun
     * to exit (a short host, a slow machine), its JVMTI answers a retransformation in the dead
     * phase by returning without calling any transformer, and the line would be a false alarm
     * on the host's stderr as it leaves.
     */
    private void install(final Instrumentation inst, final Consumer<String> warnings) {
        final Consumer<String> whileRunning = line -> {
            if (!exitBegun) {
                warnings.accept(line);
            }
        };
        try {
            final AqsCounting done = AqsCounting.install(inst, whileRunning);
            synchronized (this) {
                if (closed) {
                    if (done != null) {
                        done.close();
                    }
                } else {
                    counting = done;
                }
            }
        } catch (final RuntimeException | LinkageError e) {
            whileRunning.accept("j.u.c. lock counting not installed (" + e + ")");
        } finally {
            installed.countDown();
        }
    }

    /**
     * Waits until the counting advice is in place (or has failed, or is off).
     *
     * @return true when counting runs
     */
    public boolean awaitCounting(final Duration timeout) throws InterruptedException {
        installed.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
        synchronized (this) {
            return counting != null;
        }
    }

    /** @return what the probe has seen since it started */
    public LockSnapshot snapshot() {
        final AqsCounting c;
        synchronized (this) {
            c = counting;
        }
        final List<JucContention> atExit = countedAtExit;
        final List<JucContention> below = atExit != null ? atExit : c == null ? List.of() : c.read();
        return tables.snapshot(source, source == LockSnapshot.Source.SAMPLED ? LockSampler.PERIOD_NANOS
            : settings.thresholdNanos(), c != null, below);
    }

    /** Stops the stream or sampler and removes the advice; never throws. */
    @Override
    public void close() {
        final AqsCounting c;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            c = counting;
            counting = null;
        }
        if (exitHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(exitHook);
            } catch (final IllegalStateException exiting) {
                // the host is exiting: the hook has run or runs now
            }
        }
        if (sampler != null) {
            sampler.close();
        }
        final ContentionWatch w = watch;
        if (w != null) {
            w.close();
        }
        if (c != null) {
            c.close();
        }
    }
}
