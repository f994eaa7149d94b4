package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.testing.Await;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** A process started by a test, its output captured in files, always bounded in time. */
public final class Forked {

    /**
     * How the first internal error of each of mech's components is said on stderr: every forked
     * JVM's run is held to none, as an agent's test runner fails on any instrumentation error.
     */
    private static final String INTERNAL_ERROR = "; the rest of mech carries on";

    /** What a finished process left behind. */
    public record Result(int exit, String out, String err) {

        /** The stderr lines that mech wrote. */
        public List<String> mechLines() {
            final List<String> lines = new ArrayList<>();
            for (final String line : err.split("\n")) {
                if (line.startsWith("mech")) {
                    lines.add(line);
                }
            }
            return lines;
        }
    }

    private final Process process;
    private final Path out;
    private final Path err;

    private Forked(final Process process, final Path out, final Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts a command with output going to files in dir. */
    public static Forked start(final Path dir, final List<String> command) throws IOException {
        return start(dir, command, Map.of());
    }

    /** Starts a command with extra environment variables. */
    public static Forked start(final Path dir, final List<String> command, final Map<String, String> environment)
        throws IOException {
        final String name = "p" + System.nanoTime();
        final Path out = dir.resolve(name + ".out");
        final Path err = dir.resolve(name + ".err");
        final ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(environment);
        return new Forked(builder.start(), out, err);
    }

    /** Runs a command to completion. */
    public static Result run(final Path dir, final List<String> command, final long timeoutSeconds) throws Exception {
        return start(dir, command).await(timeoutSeconds);
    }

    /** The process's pid. */
    public long pid() {
        return process.pid();
    }

    /**
     * A stop that a 300 ms threshold surely sees. The meter sees less than the test does: a stop
     * that begins part-way through its 1 ms sleep shows up to one resolution shorter, and SIGSTOP
     * takes effect on the meter's thread only when that thread next runs, which on a loaded
     * 2-core CI machine came 2 ms after {@code kill} returned (299.1 ms seen for a stop of 303 ms).
     */
    public static final long STALL_MILLIS = 310;

    /**
     * Stops the process with SIGSTOP, sleeps, and continues it with SIGCONT.
     *
     * @param millis the least time it stays stopped
     * @return milliseconds from the stop's delivery to the continue's start
     */
    public long stopFor(final long millis) throws Exception {
        signal("STOP");
        final long stopped = System.nanoTime();
        Thread.sleep(millis);
        signal("CONT");
        return (System.nanoTime() - stopped) / 1_000_000;
    }

    /** Asks the process to end (SIGTERM): the JVM runs its shutdown hooks, as at a normal exit. */
    public void terminate() {
        process.destroy();
    }

    /** Kills the process (SIGKILL): no shutdown hook runs, as after {@code kill -9}. */
    public void kill() {
        process.destroyForcibly();
    }

    private void signal(final String signal) throws Exception {
        final Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).start();
        if (kill.waitFor() != 0) {
            throw new AssertionError("kill -" + signal + " " + pid() + " failed");
        }
    }

    /**
     * Waits until mech's JFR stream records in this process: mech starts it a second after
     * start-up, and a stall or a lock before it goes unheard.
     *
     * @param javaHome the JDK whose jcmd asks
     */
    public void awaitJfrRecording(final Path javaHome) throws Exception {
        awaitSystemProperty(javaHome, "io.mech.jfr.since");
    }

    /**
     * Waits until mech has started every part the options ask for in this process: the JFR
     * stream, the lock probe and the profiler wait a second after start-up.
     *
     * @param javaHome the JDK whose jcmd asks
     */
    public void awaitMechStarted(final Path javaHome) throws Exception {
        awaitSystemProperty(javaHome, "io.mech.started");
    }

    /**
     * Waits until this process is a JVM that catches SIGQUIT, for 20 s at most: attaching (jcmd,
     * {@code mech attach}) begins with a SIGQUIT, which terminates a JVM in the first milliseconds
     * of its start, before it installs its handler, or the launcher it still is.
     */
    public void awaitJvmStarted() throws Exception {
        final Path status = Path.of("/proc", Long.toString(pid()), "status");
        Await.until("pid " + pid() + " catching SIGQUIT", Duration.ofSeconds(20), () -> {
            final String caught = Files.readString(status).lines().filter(l -> l.startsWith("SigCgt:")).findFirst().orElse("SigCgt: 4");
            if ((Long.parseUnsignedLong(caught.substring("SigCgt:".length()).trim(), 16) & 4) != 0) {
                return true;
            }
            assertTrue(process.isAlive(), "pid " + pid() + " ended before it caught SIGQUIT");
            return false;
        });
    }

    /** Asks {@code jcmd <pid> VM.system_properties} until it lists the property, for 20 s at most. */
    private void awaitSystemProperty(final Path javaHome, final String name) throws Exception {
        final AtomicReference<String> said = new AtomicReference<>("");
        try {
            Await.until(name + " set", Duration.ofSeconds(20), Duration.ofMillis(100), () -> {
                said.set(jcmd(javaHome, "VM.system_properties"));
                if (said.get().contains(name + "=")) {
                    return true;
                }
                assertTrue(process.isAlive(), "the process ended");
                return false;
            });
        } catch (final AssertionError notSet) {
            throw new AssertionError(notSet.getMessage() + "; jcmd said: " + said.get(), notSet);
        }
    }

    /**
     * Runs a diagnostic command in this process and waits for it.
     *
     * @param javaHome the JDK whose jcmd asks
     * @param command  the command and its arguments, such as {@code VM.system_properties}
     * @return what jcmd printed, its errors included
     */
    public String jcmd(final Path javaHome, final String... command) throws Exception {
        awaitJvmStarted();
        final List<String> line = new ArrayList<>(List.of(javaHome.resolve("bin/jcmd").toString(), Long.toString(pid())));
        line.addAll(List.of(command));
        final Process query = new ProcessBuilder(line).redirectErrorStream(true).start();
        final String said = new String(query.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        query.waitFor();
        return said;
    }

    /**
     * Waits for this host to write mech's /metrics address to a file, as the test hosts do once
     * mech publishes it; fails when the host ends first or a minute passes.
     *
     * @param address the file the host writes the address to
     * @return the address
     */
    public URI awaitMetricsAddress(final Path address) throws Exception {
        Await.until("a /metrics address in " + address, Duration.ofMinutes(1), () -> {
            assertTrue(ProcessHandle.of(pid()).map(ProcessHandle::isAlive).orElse(false), "the host ended before /metrics ran");
            return Files.exists(address);
        });
        return URI.create(Files.readString(address).strip());
    }

    /** @return what the process wrote to stderr so far, for a failure's message */
    public String errSoFar() throws IOException {
        return read(err);
    }

    /** Waits for the process; kills it and fails when it takes longer than the timeout. */
    public Result await(final long timeoutSeconds) throws Exception {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("process did not end within " + timeoutSeconds + " s; stderr: " + read(err));
        }
        final Result result = new Result(process.exitValue(), read(out), read(err));
        if (result.err().contains(INTERNAL_ERROR)) {
            throw new AssertionError("mech counted an internal error (mech_internal_errors_total): " + result.err());
        }
        return result;
    }

    private static String read(final Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    /** A java command line with mech attached. */
    public static List<String> javaWithMech(final Path javaHome, final String agentOptions, final String... rest) {
        final List<String> command = new ArrayList<>();
        command.add(Jdks.java(javaHome));
        command.add("-javaagent:" + Paths.mechJar() + (agentOptions.isEmpty() ? "" : "=" + agentOptions));
        command.addAll(List.of(rest));
        return command;
    }
}
