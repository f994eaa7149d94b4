package io.mech.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JDKs mech is tested on: the one running the tests (17 in CI), Temurin 21 where
 * {@code .ci/run} unpacked it ({@value #JDK_21_PROPERTY}, by default {@code ~/.cache/mech/jdk-21}),
 * and Temurin 25 where Debian's image has it. A JDK that is not installed is still listed, and a
 * test on it is reported as skipped by {@link #java}, not left out unseen.
 */
public final class Jdks {

    /** The system property that points at a JDK 21 home instead of the default. */
    static final String JDK_21_PROPERTY = "mech.jdk21";

    private static final Path TEMURIN_21 = Path.of(System.getProperty(JDK_21_PROPERTY,
        Path.of(System.getProperty("user.home"), ".cache", "mech", "jdk-21").toString()));
    private static final Path TEMURIN_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    private Jdks() {
    }

    /** Java homes to fork test JVMs from, the running one first, then 21 and 25 unless the running one is either. */
    public static Stream<Path> all() {
        final List<Path> homes = new ArrayList<>();
        final Path current = Path.of(System.getProperty("java.home"));
        homes.add(current);
        for (final Path other : List.of(TEMURIN_21, TEMURIN_25)) {
            if (!current.startsWith(other)) {
                homes.add(other);
            }
        }
        return homes.stream();
    }

    /**
     * The oldest and the newest JDK mech supports, 17 and 25, for the sweeps of every kernel
     * variant (locks and queues, a few seconds a variant) and the longest single runs (10 to 20 s),
     * too long to run three times within CI's time: 21 shares 17's object layout, Unsafe path and
     * weaving, and 25 is where they changed. The same classes' other tests, and GcTruthTest's
     * every collector, run on 21 too.
     */
    public static Stream<Path> oldestAndNewest() {
        return all().filter(home -> !home.equals(TEMURIN_21));
    }

    /** The newest JDK mech is tested on, 25 (the running one if that is 25), for a host too long to run on each. */
    public static Stream<Path> newest() {
        return all().filter(home -> home.startsWith(TEMURIN_25));
    }

    /** The homes of {@link #all} that are installed here, for a test that spreads its hosts over them. */
    public static List<Path> installed() {
        return all().filter(home -> Files.isExecutable(home.resolve("bin/java"))).toList();
    }

    /**
     * The feature release of a Java home (17, 25, ...), from its {@code release} file.
     *
     * @throws IOException when the home has no readable release file
     */
    public static int feature(final Path home) throws IOException {
        assumeInstalled(home);
        for (final String line : Files.readAllLines(home.resolve("release"))) {
            if (line.startsWith("JAVA_VERSION=")) {
                final String version = line.substring("JAVA_VERSION=".length()).replace("\"", "");
                return Integer.parseInt(version.split("[.\\-+]")[0]);
            }
        }
        throw new IOException("no JAVA_VERSION in " + home.resolve("release"));
    }

    /** The java launcher of a Java home; a test on a JDK that is not installed here ends as skipped. */
    public static String java(final Path home) {
        assumeInstalled(home);
        return home.resolve("bin/java").toString();
    }

    private static void assumeInstalled(final Path home) {
        assumeTrue(Files.isExecutable(home.resolve("bin/java")),
            () -> "no JDK at " + home + " (.ci/run installs Temurin 21 there; Debian's image brings Temurin 25)");
    }
}
