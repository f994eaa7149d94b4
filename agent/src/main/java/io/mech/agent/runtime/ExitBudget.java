package io.mech.agent.runtime;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How long the host's exit waits for mech: {@link #STOP_BUDGET_MILLIS} of mech's work from the
 * moment the exit begins; where that time passed waiting for a core (a machine with more threads
 * ready to run than cores) or held at safepoints (a host whose VM operations come one after
 * another, each waiting long for its threads: the stop ran a quarter of the time beside the
 * safepoint-delay kernel, and lost its report in 2 runs of 4), on to
 * {@link #STARVED_STOP_MILLIS} at most. The time held at safepoints is read from HotSpot's
 * counters; the budget is extended by as much of it as passed since the exit began.
 *
 * <p>Made by the shutdown hook's thread, which alone waits with it; its deadline is read by
 * {@code mech-stop} as well, and never changes.
 */
final class ExitBudget {

    /** The longest the JVM's exit waits for mech: the last interval, the report and the closes. */
    static final long STOP_BUDGET_MILLIS = 500;
    /**
     * The longest the exit waits for {@code mech-stop} on a machine with more threads ready to run
     * than cores: with 16 busy threads on 2 cores, 6 hosts of 6 lost their report, the stop still
     * waiting for a core 500 ms on.
     */
    static final long STARVED_STOP_MILLIS = 1_500;
    private static final long STARVED_POLL_MILLIS = 20;

    private final long start;
    private final long deadline;
    private final long starvedUntil;
    private final LongSupplier vmStoppedNanos;
    private final long stoppedAtStart;

    /** Waits for something within a time given in nanoseconds. */
    interface Wait {
        /** @return whether it came within the time */
        boolean waitFor(long nanos) throws InterruptedException;
    }

    private ExitBudget(final long startNanos, final LongSupplier vmStoppedNanos) {
        start = startNanos;
        deadline = startNanos + TimeUnit.MILLISECONDS.toNanos(STOP_BUDGET_MILLIS);
        starvedUntil = startNanos + TimeUnit.MILLISECONDS.toNanos(STARVED_STOP_MILLIS);
        this.vmStoppedNanos = vmStoppedNanos;
        stoppedAtStart = vmStoppedNanos.getAsLong();
    }

    /**
     * @param vmStoppedNanos the nanoseconds the VM has held every thread so far, at safepoints and
     *                       on the way to them; -1 where unknown
     * @return a budget whose time begins now
     */
    static ExitBudget fromNow(final LongSupplier vmStoppedNanos) {
        return new ExitBudget(System.nanoTime(), vmStoppedNanos);
    }

    /** @return the end of mech's own budget, in {@link System#nanoTime()}'s terms */
    long deadline() {
        return deadline;
    }

    /** @return how long the exit has waited past the start of the budget, in milliseconds */
    long waitedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /**
     * Waits to the deadline, then on while the machine is starved ({@link #machineBusy}) or for as
     * long as the VM held every thread since the start, to {@link #STARVED_STOP_MILLIS} from the
     * start at most.
     *
     * @return whether what was waited for came
     */
    boolean waitFor(final Wait wait) throws InterruptedException {
        if (wait.waitFor(Math.max(0, deadline - System.nanoTime()))) {
            return true;
        }
        long now;
        while ((now = System.nanoTime()) < starvedUntil && (now < deadline + heldAtSafepoints() || machineBusy())) {
            if (wait.waitFor(Math.min(TimeUnit.MILLISECONDS.toNanos(STARVED_POLL_MILLIS), starvedUntil - now))) {
                return true;
            }
        }
        return false;
    }

    /** @return the nanoseconds the VM held every thread since the budget began; 0 where unknown */
    private long heldAtSafepoints() {
        final long now = vmStoppedNanos.getAsLong();
        return now < 0 || stoppedAtStart < 0 ? 0 : now - stoppedAtStart;
    }

    /**
     * Whether the machine, rather than mech's work, holds {@code mech-stop} up: more threads are
     * ready to run than there are cores ({@code /proc/loadavg}'s running count), so the stop, or
     * the thread holding a lock it waits for, waits for a core. False where that cannot be read.
     */
    private static boolean machineBusy() {
        try {
            final String[] load = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            final int running = Integer.parseInt(load[3].substring(0, load[3].indexOf('/')));
            // the count includes the thread reading it
            return running - 1 > Runtime.getRuntime().availableProcessors();
        } catch (final IOException | RuntimeException e) {
            return false;
        }
    }
}
