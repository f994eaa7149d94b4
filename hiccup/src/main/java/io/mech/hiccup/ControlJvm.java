package io.mech.hiccup;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * An idle JVM started beside the host that records its own hiccups to {@code <log>.c}. When
 * both JVMs stall at the same moment, the cause lies outside either of them: the operating
 * system or the hypervisor.
 *
 * <p>The control JVM watches the host's pid and exits when the host does, even when the host
 * is killed; {@link #close()} ends it sooner, after it has written its last interval. It
 * reports each of its stalls on its stdout as it happens (see {@link ControlStalls}).
 */
public final class ControlJvm implements AutoCloseable {

    /** Small and simple, so that the control JVM's own GC barely registers. */
    private static final List<String> JVM_FLAGS = List.of(
        "-Xms16m", "-Xmx16m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto");

    private final Process process;
    private final Path log;
    private final LogFollower follower;
    private final ControlStalls stalls = new ControlStalls();

    private ControlJvm(final Process process, final Path log) {
        this.process = process;
        this.log = log;
        this.follower = new LogFollower(log);
        stalls.follow(process.getInputStream());
    }

    /**
     * Starts a control JVM.
     *
     * @param classpath a class path holding this class and its dependencies (mech.jar)
     * @param settings  the host's settings; the control logs to the host's log path plus {@code .c}
     * @param warnings  told when the JVM cannot be started
     * @return the running control JVM, or {@code null} when it could not be started
     */
    public static ControlJvm start(final String classpath, final HiccupSettings settings, final Consumer<String> warnings) {
        final Path log = controlLog(settings.log());
        final String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        final List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(JVM_FLAGS);
        command.addAll(List.of("-cp", classpath, ControlMain.class.getName(),
            log.toString(),
            Long.toString(settings.resolutionNanos()),
            Long.toString(settings.intervalNanos()),
            Long.toString(settings.delayNanos()),
            Long.toString(settings.stallNanos()),
            Long.toString(ProcessHandle.current().pid())));
        try {
            final Process process = new ProcessBuilder(command)
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
            return new ControlJvm(process, log);
        } catch (final IOException e) {
            warnings.accept("cannot start the control JVM (" + e.getMessage() + "); host hiccups only");
            return null;
        }
    }

    /** The control log that goes with a host log: the same path plus {@code .c}. */
    public static Path controlLog(final Path hostLog) {
        return Path.of(hostLog + ".c");
    }

    /** Where this control JVM logs. */
    public Path log() {
        return log;
    }

    /**
     * The control JVM's hiccups so far, as far as its log has them. Stalls are not logged, so
     * the snapshot reports none measured.
     *
     * @throws IOException when the log cannot be read (for instance before the JVM created it)
     */
    public HiccupSnapshot snapshot() throws IOException {
        return follower.snapshot();
    }

    /** The control JVM's stalls, as it reports them while it runs. */
    public ControlStalls stalls() {
        return stalls;
    }

    /** Asks the control JVM to write its last interval and exit, and waits for it briefly. */
    @Override
    public void close() {
        close(System.nanoTime() + TimeUnit.SECONDS.toNanos(3));
    }

    /**
     * Asks the control JVM to write its last interval and exit, and waits for it until the
     * deadline; one still running then is killed, since it exists only for the host.
     *
     * @param deadline the {@link System#nanoTime} by which to return: the host's exit waits
     */
    public void close(final long deadline) {
        process.destroy();
        try {
            if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                process.destroyForcibly();
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
