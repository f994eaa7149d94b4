package io.mech.agent;

import io.mech.replay.ReplayCommand;
import java.util.Arrays;
import java.util.Locale;

/** {@code java -jar mech.jar <command>}: the tools that run outside the host JVM. */
public final class Main {

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
                System.out.print(optionTable());
                return 0;
            case "help":
            case "--help":
            case "-h":
                System.out.print(usage());
                return 0;
            default:
                System.err.println("mech: unknown command '" + args[0] + "'");
                System.err.print(usage());
                return 2;
        }
    }

    private static String usage() {
        return "usage: java -jar mech.jar <command>\n"
            + "  attach <pid> [key=value,...]   load mech into a running JVM of the same user\n"
            + "  profile <pid> [--seconds N] [--event wall|cpu|lock|alloc] [--dir D] [--extract-path P]\n"
            + "                                 an async-profiler flame graph of a running JVM\n"
            + "  replay [options] <log>...      replay hiccup logs: percentiles, merge, charts, OpenMetrics\n"
            + "  options                        list every option with its default\n"
            + "As an agent: java -javaagent:mech.jar[=key=value,...] -jar app.jar\n";
    }

    /** The option table, in Markdown, as the README shows it. */
    static String optionTable() {
        final StringBuilder out = new StringBuilder("| key | default | environment | meaning |\n|---|---|---|---|\n");
        for (final Option option : Option.all()) {
            out.append(String.format(Locale.ROOT, "| `%s` | `%s` | `%s` | %s (%s) |%n", option.key,
                option.defaultValue, option.environmentName(), option.description, option.expected()));
        }
        return out.toString();
    }
}
