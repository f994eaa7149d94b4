package io.mech.hiccup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The pid of this JVM. */
public final class Pid {

    private Pid() {
    }

    /**
     * This process's pid, read from {@code /proc/self} where there is one: ProcessHandle would
     * also do, but its first use sets up the JDK's process reaper, 10 ms of a host's start-up.
     */
    public static long current() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
        } catch (final IOException | UnsupportedOperationException | NumberFormatException e) {
            return ProcessHandle.current().pid();
        }
    }
}
