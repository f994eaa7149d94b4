package io.mech.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Names the machine a results table was measured on. */
final class Machine {

    private Machine() {
    }

    static String describe() {
        return "CPU: " + cpuModel() + "; cores: " + Runtime.getRuntime().availableProcessors()
            + "; JDK: " + System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
            + "; OS: " + System.getProperty("os.name") + " " + System.getProperty("os.version");
    }

    private static String cpuModel() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (final IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
        return "unknown";
    }
}
