package io.mech.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a JVM to completion and times it from fork to exit. */
final class Jvm {

    /**
     * A finished run.
     *
     * @param wallNanos fork to exit
     * @param out       what it printed on stdout
     * @param err       what it printed on stderr
     */
    record Run(long wallNanos, String out, String err) {
    }

    private Jvm() {
    }

    /**
     * A JVM forked and not yet awaited.
     *
     * @param process    the process
     * @param command    its command line, for messages
     * @param out        where its stdout goes
     * @param err        where its stderr goes
     * @param startNanos when it was forked
     */
    record Started(Process process, List<String> command, Path out, Path err, long startNanos) {
    }

    static Run run(final Path workDir, final List<String> jvmArgs, final List<String> mainAndArgs, final long timeoutSeconds)
        throws IOException, InterruptedException {
        return run(workDir, List.of(), jvmArgs, mainAndArgs, timeoutSeconds);
    }

    /**
     * Runs a JVM as the child of a wrapper command, such as {@link GnuTime#wrapper()}; its wall
     * time includes the wrapper's.
     */
    static Run run(final Path workDir, final List<String> wrapper, final List<String> jvmArgs, final List<String> mainAndArgs,
        final long timeoutSeconds) throws IOException, InterruptedException {
        return await(start(workDir, wrapper, jvmArgs, mainAndArgs), timeoutSeconds);
    }

    /** Forks a JVM that runs while the caller does something to it. */
    static Started start(final Path workDir, final List<String> jvmArgs, final List<String> mainAndArgs) throws IOException {
        return start(workDir, List.of(), jvmArgs, mainAndArgs);
    }

    private static Started start(final Path workDir, final List<String> wrapper, final List<String> jvmArgs,
        final List<String> mainAndArgs) throws IOException {
        final List<String> command = new ArrayList<>(wrapper);
        command.add(javaCommand());
        command.addAll(jvmArgs);
        command.addAll(mainAndArgs);
        final Path out = Files.createTempFile(workDir, "out", ".txt");
        final Path err = Files.createTempFile(workDir, "err", ".txt");
        final long start = System.nanoTime();
        final Process process = new ProcessBuilder(command).directory(workDir.toFile())
            .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new Started(process, command, out, err, start);
    }

    /** Waits for a started JVM to exit, which it must do with status 0 within the timeout. */
    static Run await(final Started started, final long timeoutSeconds) throws IOException, InterruptedException {
        final Process process = started.process();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IOException("timed out after " + timeoutSeconds + " s: " + String.join(" ", started.command()));
        }
        final long wall = System.nanoTime() - started.startNanos();
        final String err = Files.readString(started.err(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException("exit " + process.exitValue() + ": " + String.join(" ", started.command()) + "\n" + err);
        }
        return new Run(wall, Files.readString(started.out(), StandardCharsets.UTF_8), err);
    }

    /** The java launcher of the JDK running the bench, which every measured JVM uses too. */
    static String javaCommand() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The value of the first {@code key=value} in a run's output. */
    static double field(final String out, final String key) {
        return field(out, key, false);
    }

    /** The values of every {@code key=value} in a run's output, in order. */
    static List<Double> fields(final String out, final String key) {
        final List<Double> values = new ArrayList<>();
        for (final String token : out.split("\\s+")) {
            if (token.startsWith(key + "=")) {
                values.add(Double.parseDouble(token.substring(key.length() + 1)));
            }
        }
        return values;
    }

    /** The value of the first, or the last, {@code key=value} in a run's output. */
    static double field(final String out, final String key, final boolean last) {
        final List<Double> values = fields(out, key);
        if (values.isEmpty()) {
            throw new IllegalStateException("no " + key + "= in output:\n" + out);
        }
        return values.get(last ? values.size() - 1 : 0);
    }
}
