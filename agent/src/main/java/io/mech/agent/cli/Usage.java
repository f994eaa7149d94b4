package io.mech.agent.cli;

/** What every command of {@code java -jar mech.jar} says of its own usage, the same way. */
public final class Usage {

    private Usage() {
    }

    /**
     * @param command the command whose usage was wrong
     * @return the pointer that command's usage errors end with
     */
    public static String helpPointer(final String command) {
        return "java -jar mech.jar " + command + " --help";
    }

    /** @return whether an argument asks a command for its help */
    public static boolean asksForHelp(final String argument) {
        return argument.equals("--help") || argument.equals("-h");
    }
}
