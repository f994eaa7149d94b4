package io.mech.hiccup;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The hiccups of a virtual thread: a second {@link HiccupMeter} run on a virtual thread of the
 * default scheduler (JDK 21 and later). A virtual thread that sleeps gives its carrier back and
 * needs one again to wake, so the meter's excess over its shortest round is how long a virtual
 * thread waited for a carrier: pinned carriers, or carriers kept busy by virtual threads that
 * never block, stall it while the platform meter stays quiet.
 *
 * <p>Threads: the meter writes its own recorder from its virtual thread; the host recorder's log
 * thread calls {@link #closeInterval} under the host recorder's monitor; any thread reads
 * {@link #snapshot()}, published through a volatile as the host recorder's is.
 */
final class VirtualMeter {

    /** The tag of its intervals in the log. */
    static final String TAG = "virtual";

    private final SingleWriterRecorder recorder;
    private final HiccupMeter meter;
    private final Histogram total = new Histogram(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS);
    private Histogram interval;
    private long intervals;
    private volatile HiccupSnapshot closedIntervals;

    private VirtualMeter(final long resolutionNanos, final long stallNanos) {
        recorder = new SingleWriterRecorder(HiccupSettings.HIGHEST_TRACKABLE_NANOS, HiccupRecorder.SIGNIFICANT_DIGITS);
        meter = new HiccupMeter(recorder, resolutionNanos, stallNanos, null, null, null);
        closedIntervals = new HiccupSnapshot(total, 0, 0, 0, 0, 0);
    }

    /**
     * Starts the meter on a virtual thread.
     *
     * @return the running meter, or null on a JVM without virtual threads
     */
    static VirtualMeter start(final long resolutionNanos, final long stallNanos) {
        final MethodHandle unstarted = unstartedVirtualThread();
        if (unstarted == null) {
            return null;
        }
        final VirtualMeter virtual = new VirtualMeter(resolutionNanos, stallNanos);
        // before the thread starts: a full heap that fails this leaves no meter running unseen
        virtual.interval = virtual.recorder.getIntervalHistogram();
        try {
            ((Thread) unstarted.invoke(virtual.meter)).start();
        } catch (final Throwable e) {
            return null;
        }
        return virtual;
    }

    /**
     * {@code Thread.ofVirtual().name("mech-hiccup-virtual").unstarted(task)} as a handle taking
     * the task, looked up at run time because mech is compiled for JDK 17; null before JDK 21.
     */
    private static MethodHandle unstartedVirtualThread() {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            final Class<?> builder = Class.forName("java.lang.Thread$Builder");
            final Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            final Object named = lookup.findVirtual(ofVirtual, "name", MethodType.methodType(ofVirtual, String.class))
                .invoke(lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtual)).invoke(), "mech-hiccup-virtual");
            return lookup.findVirtual(builder, "unstarted", MethodType.methodType(Thread.class, Runnable.class)).bindTo(named);
        } catch (final Throwable e) {
            return null;
        }
    }

    /** Ends an interval: adds it to the total and returns it, tagged, for the log. */
    Histogram closeInterval(final long startMillis, final long endMillis, final long recordingStartMillis) {
        interval = recorder.getIntervalHistogram(interval);
        interval.setStartTimeStamp(startMillis);
        interval.setEndTimeStamp(endMillis);
        interval.setTag(TAG);
        total.add(interval);
        intervals++;
        closedIntervals = new HiccupSnapshot(total, intervals, recordingStartMillis, interval.getMaxValue(), 0, 0);
        return interval;
    }

    /** Drops what was recorded before logging began. */
    void discard() {
        interval = recorder.getIntervalHistogram(interval);
    }

    /** The closed intervals and the stalls counted up to now; any thread. */
    HiccupSnapshot snapshot() {
        return closedIntervals.withStalls(meter.stalls(), meter.stallNanos());
    }

    void stop() {
        meter.stop();
    }
}
