package io.mech.agent;

import io.mech.agent.cli.AttachCommand;
import io.mech.agent.cli.ProfileCommand;
import io.mech.agent.cli.Usage;
import io.mech.agent.options.Option;
import io.mech.replay.ReplayCommand;
import java.util.Arrays;
import java.util.Locale;

/** {@code java -jar mech.jar <command>}: the tools that run outside the host JVM. */
public final class Main {

    /** The pointer a usage error ends with: one line, not the whole help. */
    static final String HELP = "java -jar mech.jar --help lists the commands";

    private Main() {
    }

    /**
     * Runs a command and exits with its status.
     *
     * @param args the command and its arguments
     */
    public static void main(final String[] args) {
        System.exit(run(args));
    }

    static int run(final String[] args) {
        if (args.length == 0) {
            System.err.print(usage());
            return 2;
        }
        final String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "attach":
                return AttachCommand.run(rest);
            case "profile":
                return ProfileCommand.run(rest);
            case "replay":
                return ReplayCommand.run(rest, System.out, System.err);
            case "options":
                return options(rest);
            case "help":
            case "--help":
            case "-h":
                System.out.print(usage());
                return 0;
            case "version":
            case "--version":
                System.out.println("mech " + version());
                return 0;
            default:
                System.err.println("mech: unknown command '" + args[0] + "'; " + HELP);
                return 2;
        }
    }

    /** The version the jar's manifest names; "unknown" when run from classes, as in the build's own tests. */
    static String version() {
        final String version = Main.class.getPackage().getImplementationVersion();
        return version == null ? "unknown (not run from mech.jar)" : version;
    }

    private static String usage() {
        return "usage: java -jar mech.jar <command>\n"
            + "  attach <pid> [key=value,...]   load mech into a running JVM of the same user\n"
            + "  profile <pid> [--duration 10s] [--event wall|cpu|lock|alloc] [--dir D] [--extract-path P]\n"
            + "                                 an async-profiler flame graph of a running JVM\n"
            + "  replay [options] <log>...      replay hiccup logs: percentiles, merge, charts, OpenMetrics\n"
            + "  options                        list every option with its default\n"
            + "  --version                      this jar's version\n"
            + "Each command answers --help. Exit codes: 0 done, 1 the command failed (it says why), 2 a usage error;\n"
            + "replay also 3: nothing selected.\n"
            + "As an agent: java -javaagent:mech.jar[=key=value,...] -jar app.jar\n";
    }

    private static int options(final String[] args) {
        if (args.length == 1 && Usage.asksForHelp(args[0])) {
            System.out.println("usage: java -jar mech.jar options\n"
                + "Lists every option of the agent with its default, environment variable and meaning, as a Markdown table.");
            return 0;
        }
        if (args.length > 0) {
            System.err.println("mech options: takes no arguments, got '" + args[0] + "'; " + Usage.helpPointer("options"));
            return 2;
        }
        System.out.print(optionTable());
        return 0;
    }

    /** The option table, in Markdown, as the README shows it. */
    static String optionTable() {
        final StringBuilder out = new StringBuilder("| key | default | environment | meaning |\n|---|---|---|---|\n");
        for (final Option<?> option : Parts.options()) {
            out.append(String.format(Locale.ROOT, "| `%s` | `%s` | `%s` | %s (%s) |%n", option.key,
                option.defaultValue, option.environmentName(), option.description, option.expected()));
        }
        return out.toString();
    }
}
