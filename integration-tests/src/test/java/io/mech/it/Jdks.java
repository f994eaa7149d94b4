package io.mech.it;

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

    /** The java launcher of a Java home. */
    public static String java(final Path home) {
        return home.resolve("bin/java").toString();
    }
}
