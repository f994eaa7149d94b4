package io.mech.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The JDKs mech is tested on: the one running the tests, and Temurin 25 where it is installed. */
public final class Jdks {

    private static final Path TEMURIN_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    private Jdks() {
    }

    /** Java homes to fork test JVMs from, the running one first. */
    public static Stream<Path> all() {
        final List<Path> homes = new ArrayList<>();
        final Path current = Path.of(System.getProperty("java.home"));
        homes.add(current);
        if (Files.isExecutable(TEMURIN_25.resolve("bin/java")) && !current.startsWith(TEMURIN_25)) {
            homes.add(TEMURIN_25);
        }
        return homes.stream();
    }

    /**
     * The feature release of a Java home (17, 25, ...), from its {@code release} file.
     *
     * @throws IOException when the home has no readable release file
     */
    public static int feature(final Path home) throws IOException {
        for (final String line : Files.readAllLines(home.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                final String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                return Integer.parseInt(version.split("[.\\-+]")[0]);
            }
        }
        throw new IOException("no JAVA_VERSION in " + home.resolve("release"));
    }

    /** The java launcher of a Java home. */
    public static String java(final Path home) {
        return home.resolve("bin/java").toString();
    }
}
