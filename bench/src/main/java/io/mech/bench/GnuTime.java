package io.mech.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * GNU time ({@code /usr/bin/time}, Debian package {@code time}), through which the bench reads
 * the CPU time a child JVM used, every thread of it from fork to exit, shutdown hooks included.
 * Java can read a live process's CPU time but not a reaped child's (it has no
 * {@code getrusage(RUSAGE_CHILDREN)}), and a child reading its own would miss its exit. GNU time
 * prints seconds to two decimals: each sample is good to 10 ms.
 */
final class GnuTime {

    static final Path PATH = Path.of("/usr/bin/time");

    /** Starts the line GNU time appends to the child's stderr, so that it is found after whatever the child printed. */
    private static final String MARK = "mech-bench-cpu";

    private GnuTime() {
    }

    static boolean available() {
        return Files.isExecutable(PATH);
    }

    /** The command to put before the JVM's. */
    static List<String> wrapper() {
        return List.of(PATH.toString(), "-f", MARK + " %U %S");
    }

    /** User plus system CPU time, in milliseconds, from the stderr of a JVM run under {@link #wrapper()}. */
    static double cpuMillis(final String err) {
        final int mark = err.lastIndexOf(MARK);
        if (mark < 0) {
            throw new IllegalStateException("no '" + MARK + "' line from " + PATH + " in stderr:\n" + err);
        }
        final String[] seconds = err.substring(mark + MARK.length()).trim().split("\\s+");
        return 1000 * (Double.parseDouble(seconds[0]) + Double.parseDouble(seconds[1]));
    }
}
