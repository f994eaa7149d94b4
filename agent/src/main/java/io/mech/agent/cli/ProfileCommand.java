package io.mech.agent.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import io.mech.agent.profiler.OnDemandProfile;
import io.mech.agent.runtime.OwnJar;
import io.mech.probes.profiler.CaptureFiles;
import io.mech.probes.profiler.ProfileEvent;
import io.mech.report.Durations;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * {@code java -jar mech.jar profile <pid> [--duration 10s] [--event wall|cpu|lock|alloc] [--dir D]
 * [--extract-path P]}: one async-profiler capture of a running JVM, written as an HTML flame
 * graph. The capture runs inside the target (mech.jar is loaded there for it, whether or not mech
 * already runs); the command returns when the files are written.
 */
public final class ProfileCommand {

    private static final String USAGE =
        "usage: java -jar mech.jar profile <pid> [--duration 10s] [--event wall|cpu|lock|alloc] [--dir D] [--extract-path P]";
    private static final long MIN_MILLIS = 1_000;
    private static final long MAX_MILLIS = 600_000;

    private ProfileCommand() {
    }

    public static int run(final String[] args) {
        if (args.length >= 1 && Usage.asksForHelp(args[0])) {
            System.out.println(USAGE);
            return 0;
        }
        if (args.length < 1) {
            System.err.println("mech profile: a pid is needed; " + Usage.helpPointer("profile"));
            return 2;
        }
        final long pid;
        long millis = 10_000;
        ProfileEvent event = ProfileEvent.WALL;
        Path dir = Path.of("");
        Path extract = Path.of(System.getProperty("java.io.tmpdir"));
        try {
            pid = Long.parseLong(args[0]);
            for (int i = 1; i < args.length; i += 2) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(args[i] + " needs a value");
                }
                final String value = args[i + 1];
                switch (args[i]) {
                    case "--duration" -> millis = millis(value);
                    case "--event" -> event = ProfileEvent.parse(value);
                    case "--dir" -> dir = Path.of(value);
                    case "--extract-path" -> extract = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
        } catch (final IllegalArgumentException e) {
            System.err.println("mech profile: " + (e instanceof NumberFormatException ? "'" + args[0] + "' is not a pid" : e.getMessage())
                + "; " + Usage.helpPointer("profile"));
            return 2;
        }
        final String problem = AttachCommand.checkProcess(pid);
        if (problem != null) {
            System.err.println("mech profile: " + problem);
            return 1;
        }
        try {
            Files.createDirectories(dir);
        } catch (final IOException e) {
            System.err.println("mech profile: cannot create --dir " + dir + ": " + e.getMessage());
            return 1;
        }
        final String when = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        final Path html = dir.toAbsolutePath().resolve("profile." + when + "." + pid + ".html");
        try {
            return capture(pid, OnDemandProfile.request(millis, event, extract.toAbsolutePath(), html), html);
        } catch (final NoClassDefFoundError e) {
            System.err.println("mech profile: this Java runtime has no attach API (module jdk.attach); run it with a JDK");
            return 1;
        }
    }

    /** How long the capture samples, in the one duration grammar: from 1s to 10m. */
    private static long millis(final String value) {
        final long millis = Durations.parseNanos(value) / 1_000_000;
        if (millis < MIN_MILLIS || millis > MAX_MILLIS) {
            throw new IllegalArgumentException("--duration must be from 1s to 10m, got " + value);
        }
        return millis;
    }

    private static int capture(final long pid, final String request, final Path html) {
        final VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (final AttachNotSupportedException | IOException e) {
            System.err.println("mech profile: pid " + pid + " refused attach: " + e.getMessage());
            return 1;
        }
        try {
            vm.loadAgent(OwnJar.path(), request);
        } catch (final AgentLoadException | AgentInitializationException | IOException e) {
            System.err.println("mech profile: pid " + pid + " did not load mech: " + e.getMessage());
            return 1;
        } finally {
            try {
                vm.detach();
            } catch (final IOException ignored) {
                // The capture is written or not by now; a failed detach changes neither.
            }
        }
        final Path error = OnDemandProfile.errorOf(html);
        try {
            if (Files.exists(error)) {
                System.err.println("mech profile: pid " + pid + ": " + Files.readString(error, StandardCharsets.UTF_8));
                Files.delete(error);
                return 1;
            }
        } catch (final IOException e) {
            System.err.println("mech profile: cannot read " + error + ": " + e.getMessage());
            return 1;
        }
        if (!Files.isRegularFile(html)) {
            System.err.println("mech profile: pid " + pid + " wrote no " + html);
            return 1;
        }
        System.out.println("mech profile: pid " + pid + ": " + html + " (JFR " + CaptureFiles.jfrOf(html).getFileName()
            + ", metadata " + CaptureFiles.metadataOf(html).getFileName() + ")");
        return 0;
    }
}
