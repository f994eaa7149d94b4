package io.mech.agent.options;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/** The packages a probe's {@code include} option names: the application's own code, which the probes weave and judge. */
public final class IncludedPackages {

    private IncludedPackages() {
    }

    /** The packages an include option names, or the main class's package when it names none. */
    public static List<String> of(final String option) {
        final List<String> include = new ArrayList<>();
        for (final String part : option.split(";")) {
            if (!part.isBlank()) {
                include.add(part.strip());
            }
        }
        if (include.isEmpty()) {
            final String main = mainClass();
            final int dot = main == null ? -1 : main.lastIndexOf('.');
            if (dot > 0) {
                include.add(main.substring(0, dot));
            }
        }
        return include;
    }

    /** The main class as the launcher saw it: the command's first word, or a jar's Main-Class. */
    private static String mainClass() {
        final String command = System.getProperty("sun.java.command", "").strip();
        if (command.isEmpty()) {
            return null;
        }
        final String first = command.split("\\s+")[0];
        if (!first.endsWith(".jar") || !Files.isRegularFile(Path.of(first))) {
            return first;
        }
        try (JarFile jar = new JarFile(first)) {
            return jar.getManifest() == null ? null : jar.getManifest().getMainAttributes().getValue("Main-Class");
        } catch (final IOException e) {
            return null;
        }
    }
}
