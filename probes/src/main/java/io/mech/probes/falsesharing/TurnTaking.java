package io.mech.probes.falsesharing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How long the host's threads waited for a CPU, runnable, against how long they ran, over the
 * counting bursts: from each task's {@code schedstat} in {@code /proc/self/task}, read when a burst
 * begins and when it ends. A line moves between cores only while the threads that use it run at
 * once; on a machine with more runnable threads than cores the scheduler may keep two of them
 * taking turns on one core for seconds (the false-sharing kernels' shared variants, beside four
 * spinning shell loops on two cores, went unflagged in 5 of 12 windows, each time with both
 * threads on one CPU), and a window then sees no sharing that would cost on a less busy machine.
 * When the waiting was at least the running (on average a thread waiting for each one running),
 * the window says so among what it did not see ({@link #phrase}).
 *
 * <p>A reading opens every task's file, on mech's thread, twice a burst: a burst's two readings took
 * 0.5 ms for 35 tasks and 7 ms for 520 (about 7 us a task a reading). Past {@value #MAX_TASKS}
 * tasks a burst is not read, and the figure covers the bursts that were.
 *
 * <p>Thread contract: the probe's one thread calls everything.
 */
final class TurnTaking {

    /** At this many tasks a burst's two readings take about 14 ms, a quarter of the 50 ms burst they judge. */
    static final int MAX_TASKS = 1000;

    private final Path tasks;
    /** Each task's run and wait nanoseconds when the burst began, by task id. */
    private Map<String, long[]> atBegin;
    private long ranNanos;
    private long waitedNanos;

    /** @param tasks the directory of the process's tasks, each with a {@code schedstat}: {@code /proc/self/task} */
    TurnTaking(final Path tasks) {
        this.tasks = tasks;
    }

    /** Reads every task's figures as a burst begins; where they cannot be read, the burst is not judged. */
    void begin() {
        atBegin = read();
    }

    /** Adds what each task that lived through the burst ran and waited since {@link #begin}. */
    void end() {
        final Map<String, long[]> before = atBegin;
        atBegin = null;
        if (before == null) {
            return;
        }
        final Map<String, long[]> after = read();
        if (after == null) {
            return;
        }
        for (final Map.Entry<String, long[]> task : after.entrySet()) {
            final long[] then = before.get(task.getKey());
            if (then != null) {
                ranNanos += Math.max(0, task.getValue()[0] - then[0]);
                waitedNanos += Math.max(0, task.getValue()[1] - then[1]);
            }
        }
    }

    /** @return nanoseconds the tasks ran within the bursts read */
    long ranNanos() {
        return ranNanos;
    }

    /** @return nanoseconds the tasks waited, runnable, for a CPU within the bursts read */
    long waitedNanos() {
        return waitedNanos;
    }

    /**
     * @return what the window could not see because its threads took turns on the cores, for a
     *         person; null when they waited less than they ran, or nothing was read
     */
    String phrase() {
        if (ranNanos == 0 || waitedNanos < ranNanos) {
            return null;
        }
        return String.format(Locale.ROOT, "sharing between threads that took turns on one core: while counting, the host's "
            + "threads waited for a CPU %.1f ms for every ms they ran, and a line moves between cores only while its threads "
            + "run at once", (double) waitedNanos / ranNanos);
    }

    /** @return each task's run and wait ns by task id, or null where the tasks or a file cannot be read, or are too many */
    private Map<String, long[]> read() {
        final Map<String, long[]> figures = new HashMap<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(tasks)) {
            for (final Path task : all) {
                if (figures.size() == MAX_TASKS) {
                    return null;
                }
                final long[] ranWaited = parse(task.resolve("schedstat"));
                if (ranWaited != null) {
                    figures.put(task.getFileName().toString(), ranWaited);
                }
            }
        } catch (final IOException | RuntimeException e) {
            return null;
        }
        return figures.isEmpty() ? null : figures;
    }

    /** @return the first two figures of a {@code schedstat}, or null where the task ended before it was read */
    static long[] parse(final Path schedstat) {
        final String text;
        try {
            text = new String(Files.readAllBytes(schedstat), StandardCharsets.US_ASCII);
        } catch (final IOException e) {
            return null;
        }
        final String[] fields = text.trim().split(" ");
        if (fields.length < 2) {
            return null;
        }
        try {
            return new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1])};
        } catch (final NumberFormatException e) {
            return null;
        }
    }
}
