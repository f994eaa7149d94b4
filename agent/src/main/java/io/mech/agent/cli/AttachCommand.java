package io.mech.agent.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import io.mech.agent.runtime.Console;
import io.mech.agent.runtime.Mech;
import io.mech.agent.runtime.OwnJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * {@code java -jar mech.jar attach <pid> [options]}: loads mech into a running JVM. Options and
 * %pid are expanded inside the target, so %pid is the target's pid.
 */
public final class AttachCommand {

    /** How long attach waits for a starting JVM to catch SIGQUIT. */
    static final long START_WAIT_MILLIS = 10_000;
    /** SIGQUIT is signal 3: bit 2 of the kernel's caught-signal mask. */
    private static final long SIGQUIT_BIT = 1L << 2;

    private AttachCommand() {
    }

    private static final String USAGE = "usage: java -jar mech.jar attach <pid> [key=value,...]\n"
        + "Loads mech into the running JVM <pid> of the same user, with the agent's options (java -jar mech.jar options).\n";

    public static int run(final String[] args) {
        if (args.length >= 1 && Usage.asksForHelp(args[0])) {
            System.out.print(USAGE);
            return 0;
        }
        if (args.length < 1 || args.length > 2) {
            System.err.println("mech attach: " + (args.length < 1 ? "a pid is needed" : "one pid and one option list at most, got "
                + args.length + " arguments") + "; " + Usage.helpPointer("attach"));
            return 2;
        }
        final long pid;
        try {
            pid = Long.parseLong(args[0]);
        } catch (final NumberFormatException e) {
            System.err.println("mech attach: '" + args[0] + "' is not a pid; " + Usage.helpPointer("attach"));
            return 2;
        }
        final String options = args.length == 2 ? args[1] : "";
        final String problem = checkProcess(pid);
        if (problem != null) {
            System.err.println("mech attach: " + problem);
            return 1;
        }
        try {
            return attach(pid, options);
        } catch (final NoClassDefFoundError e) {
            System.err.println("mech attach: this Java runtime has no attach API (module jdk.attach); run it with a JDK");
            return 1;
        }
    }

    /**
     * Checks what can be told without attaching. Attaching starts with a SIGQUIT to the target,
     * which terminates a process that is not a JVM, or a JVM too young to catch it, and only
     * prints a thread dump in a JVM that refuses attach, so all three are ruled out first; the
     * young JVM is waited for.
     *
     * @return what rules the pid out, or null
     */
    static String checkProcess(final long pid) {
        final Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return "no process with pid " + pid;
        }
        final Path proc = Path.of("/proc", Long.toString(pid));
        if (!Files.isDirectory(proc)) {
            return null;
        }
        try {
            final String owner = Files.getOwner(proc).getName();
            final String me = System.getProperty("user.name");
            if (!owner.equals(me)) {
                return "pid " + pid + " belongs to user " + owner + ", not " + me
                    + "; a JVM can only be attached to by its own user";
            }
            if (!Files.readString(proc.resolve("maps"), StandardCharsets.ISO_8859_1).contains("/libjvm.so")) {
                return "pid " + pid + " is not a JVM (no libjvm.so mapped)";
            }
            final String launch = Files.readString(proc.resolve("cmdline"), StandardCharsets.ISO_8859_1)
                + Files.readString(proc.resolve("environ"), StandardCharsets.ISO_8859_1);
            if (launch.contains("-XX:+DisableAttachMechanism")) {
                return "pid " + pid + " was started with -XX:+DisableAttachMechanism and refuses attach";
            }
            return awaitQuitHandler(proc, pid);
        } catch (final IOException e) {
            return "cannot inspect pid " + pid + ": " + e.getMessage();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while waiting for pid " + pid + " to start";
        }
    }

    /**
     * Waits, for {@link #START_WAIT_MILLIS} at most, until the JVM catches SIGQUIT: one that has
     * not yet installed its handler, in the first milliseconds of its start, would be terminated
     * by attach's SIGQUIT.
     *
     * @return null once it catches SIGQUIT, else why it is left alone
     */
    static String awaitQuitHandler(final Path proc, final long pid) throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + START_WAIT_MILLIS * 1_000_000L;
        while (!catchesQuit(Files.readString(proc.resolve("status"), StandardCharsets.ISO_8859_1))) {
            if (System.nanoTime() >= deadline) {
                return "pid " + pid + " has not installed its SIGQUIT handler within " + START_WAIT_MILLIS
                    + " ms (still starting, or it ignores SIGQUIT); attaching would terminate it";
            }
            Thread.sleep(10);
        }
        return null;
    }

    /** Whether a {@code /proc/<pid>/status} text lists SIGQUIT among the caught signals. */
    static boolean catchesQuit(final String status) {
        for (final String line : status.split("\n")) {
            if (line.startsWith("SigCgt:")) {
                return (Long.parseUnsignedLong(line.substring("SigCgt:".length()).trim(), 16) & SIGQUIT_BIT) != 0;
            }
        }
        return true;
    }

    private static int attach(final long pid, final String options) {
        final VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (final AttachNotSupportedException | IOException e) {
            System.err.println("mech attach: pid " + pid + " refused attach (not a JVM, started with "
                + "-XX:+DisableAttachMechanism, or not responding): " + e.getMessage());
            return 1;
        }
        try {
            final Properties before = vm.getSystemProperties();
            if (before.getProperty(Mech.REFUSED_PROPERTY) != null) {
                final String running = before.getProperty(Mech.LOG_PROPERTY);
                System.err.println("mech attach: mech already runs in pid " + pid + (running == null ? "" : ", logging to " + running));
                return 1;
            }
            vm.loadAgent(OwnJar.path(), options);
            final Properties target = vm.getSystemProperties();
            final String said = target.getProperty(Console.WARNINGS_PROPERTY, "");
            if (!said.isEmpty()) {
                for (final String line : said.split("\n")) {
                    System.err.println("mech attach: pid " + pid + " says: " + line);
                }
            }
            final String log = target.getProperty(Mech.LOG_PROPERTY);
            final String notWritten = target.getProperty(Mech.LOG_PROBLEM_PROPERTY);
            final String metrics = target.getProperty(Mech.METRICS_PROPERTY);
            final int refused = Integer.parseInt(target.getProperty(Mech.REFUSED_PROPERTY, "0"));
            System.out.println("mech attached to pid " + pid
                + (log != null ? "; hiccup log: " + log : notWritten != null ? "; hiccup log not written: " + notWritten : "; no hiccup log")
                + (metrics == null ? "" : "; metrics: " + metrics)
                + (refused == 0 ? "" : "; " + refused + (refused == 1 ? " option was" : " options were")
                    + " refused (see above), the rest are in force"));
            return refused == 0 ? 0 : 1;
        } catch (final AgentLoadException | AgentInitializationException | IOException e) {
            System.err.println("mech attach: pid " + pid + " did not load mech: " + e.getMessage());
            return 1;
        } finally {
            try {
                vm.detach();
            } catch (final IOException ignored) {
                // The agent is loaded or not by now; a failed detach changes neither.
            }
        }
    }
}
