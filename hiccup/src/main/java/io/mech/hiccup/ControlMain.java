package io.mech.hiccup;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The entry point of a control JVM (see {@link ControlJvm}): records hiccups of an idle JVM until
 * the host process is gone or this process is asked to terminate, and reports each stall on
 * stdout as it happens.
 */
public final class ControlMain {

    private static final long HOST_POLL_MILLIS = 1_000;
    /** Stalls reach the host within this; its attribution waits seconds for JFR anyway. */
    private static final long STALL_POLL_MILLIS = 100;

    private ControlMain() {
    }

    /**
     * Runs a control JVM.
     *
     * @param args log path; resolution, interval, delay and stall threshold in nanoseconds; host pid
     * @throws InterruptedException never in practice: the main thread is not interrupted
     */
    public static void main(final String[] args) throws InterruptedException {
        if (args.length != 6) {
            System.err.println("mech control JVM: expected <log> <resolutionNanos> <intervalNanos> <delayNanos> <stallNanos> <hostPid>");
            System.exit(2);
        }
        final HiccupSettings settings = new HiccupSettings(
            Long.parseLong(args[1]), Long.parseLong(args[2]), Long.parseLong(args[3]), Long.parseLong(args[4]), Path.of(args[0]));
        final Optional<ProcessHandle> host = ProcessHandle.of(Long.parseLong(args[5]));
        final HiccupRecorder hiccups = HiccupRecorder.start(settings, w -> System.err.println("mech control JVM: " + w));
        Runtime.getRuntime().addShutdownHook(new Thread(hiccups::close, "mech-control-shutdown"));
        final EpochClock clock = new EpochClock();
        final StallQueue.StallHandler report = new StallQueue.StallHandler() {
            @Override
            public void onStall(final long endNanos, final long lengthNanos, final long[] evidence, final int at) {
                System.out.println("stall " + clock.epochNanos(endNanos) + " " + lengthNanos);
            }
        };
        long polls = 0;
        while (host.isPresent() && host.get().isAlive()) {
            Thread.sleep(STALL_POLL_MILLIS);
            if (hiccups.stallQueue().poll(report) > 0) {
                System.out.flush();
            }
            if (++polls % (HOST_POLL_MILLIS / STALL_POLL_MILLIS) == 0) {
                clock.calibrate();
            }
        }
        hiccups.close();
    }
}
