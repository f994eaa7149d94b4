package io.mech.probes.locks;

import java.lang.instrument.Instrumentation;
import java.time.Duration;
import java.util.List;
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
 * ({@link AqsCounting}); without JFR, ThreadMXBean samples ({@link LockSampler}).
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
    private AqsCounting counting;
    private boolean closed;
    private Thread exitHook;
    /** The counted acquisitions when the host began to exit; null before. */
    private volatile List<JucContention> countedAtExit;

    private LockProbe(final LockProbeSettings settings, final LockTables tables, final LockSampler sampler) {
        this.settings = settings;
        this.tables = tables;
        this.sampler = sampler;
        this.source = sampler == null ? LockSnapshot.Source.JFR : LockSnapshot.Source.SAMPLED;
    }

    /**
     * Starts the probe.
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
        try {
            final LockTables tables = new LockTables(settings.maxRows());
            LockSampler sampler = null;
            if (stream != null) {
                LockJfr.subscribe(stream, tables, settings.thresholdNanos());
            } else {
                sampler = LockSampler.start(tables, warnings);
            }
            final LockProbe probe = new LockProbe(settings, tables, sampler);
            probe.hookExit();
            if (!settings.counting()) {
                probe.installed.countDown();
            } else if (inst == null) {
                warnings.accept("no Instrumentation; short j.u.c. lock contention is not counted");
                probe.installed.countDown();
            } else {
                final Thread installer = new Thread(() -> probe.install(inst, warnings), "mech-locks-install");
                installer.setDaemon(true);
                installer.start();
            }
            return probe;
        } catch (final RuntimeException | LinkageError e) {
            warnings.accept("lock probe not started (" + e + ")");
            return null;
        }
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
        final AqsCounting c;
        synchronized (this) {
            c = counting;
        }
        countedAtExit = c == null ? List.of() : c.read();
        tables.exiting();
    }

    private void install(final Instrumentation inst, final Consumer<String> warnings) {
        try {
            final AqsCounting done = AqsCounting.install(inst, warnings);
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
            warnings.accept("j.u.c. lock counting not installed (" + e + ")");
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
        if (c != null) {
            c.close();
        }
    }
}
