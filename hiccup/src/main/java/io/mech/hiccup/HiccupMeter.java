package io.mech.hiccup;

import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The measuring loop: ask to be woken after the resolution, see how much later than the
 * quickest wake-up seen so far it actually woke, and record that excess as a hiccup.
 *
 * <p>Subtracting the shortest observed round rather than the requested resolution removes the
 * constant cost of parking and waking on this platform, so an idle, healthy JVM records values
 * near zero. Each value is recorded with the resolution as the expected interval: a 300 ms stall
 * also stands for the 1 ms samples that could not be taken during it (coordinated omission).
 *
 * <p>Guarantees: only the thread running {@link #run()} writes to the recorder, which is what
 * {@link SingleWriterRecorder} requires. The loop allocates nothing.
 */
final class HiccupMeter implements Runnable {

    private final SingleWriterRecorder recorder;
    private final long resolutionNanos;
    private volatile boolean stopped;

    HiccupMeter(final SingleWriterRecorder recorder, final long resolutionNanos) {
        this.recorder = recorder;
        this.resolutionNanos = resolutionNanos;
    }

    @Override
    public void run() {
        long shortestNanos = Long.MAX_VALUE;
        while (!stopped) {
            final long before = System.nanoTime();
            sleepUntil(before + resolutionNanos);
            final long elapsed = System.nanoTime() - before;
            if (elapsed < shortestNanos) {
                shortestNanos = elapsed;
            }
            final long hiccup = Math.min(elapsed - shortestNanos, HiccupSettings.HIGHEST_TRACKABLE_NANOS);
            recorder.recordValueWithExpectedInterval(hiccup, resolutionNanos);
        }
    }

    /** Parks until the deadline; a spurious early return would shrink the shortest round. */
    private void sleepUntil(final long deadline) {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0 && !stopped) {
            LockSupport.parkNanos(remaining);
        }
    }

    void stop() {
        stopped = true;
    }
}
