package io.mech.it;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Where the build put what the tests run: mech.jar, the test classes, other library versions. */
public final class Paths {

    private Paths() {
    }

    /** agent/target/mech.jar, which must have been packaged before the tests run. */
    public static Path mechJar() {
        final Path jar = Path.of(System.getProperty("mech.jar", "../agent/target/mech.jar")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run 'mvn verify' from the top directory");
        }
        return jar;
    }

    /** examples/target/mech-examples.jar. */
    public static Path examplesJar() {
        final Path jar = Path.of(System.getProperty("mech.examples.jar", "../examples/target/mech-examples.jar"))
            .toAbsolutePath().normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: run 'mvn verify' from the top directory");
        }
        return jar;
    }

    /** A file of the repository, named from its top directory. */
    public static Path repoFile(final String relative) {
        return Path.of(System.getProperty("mech.repo", "..")).resolve(relative).toAbsolutePath().normalize();
    }

    /** This module's compiled test classes, which hold the host applications. */
    public static String testClasses() {
        return codeSource(Paths.class).toString();
    }

    /**
     * This module's test classes and the jars the given classes came from, as a class path: the
     * third-party libraries a host of the corpus drives, taken from this JVM's own class path
     * (test-scoped dependencies) by where their classes were loaded from, whatever surefire's
     * launcher put in {@code java.class.path}.
     */
    public static String testClassesWith(final Class<?>... libraries) {
        final StringBuilder path = new StringBuilder(testClasses());
        for (final Class<?> library : libraries) {
            path.append(java.io.File.pathSeparatorChar).append(codeSource(library));
        }
        return path.toString();
    }

    /** A jar copied by the build into target/host-libs. */
    public static Path hostLibrary(final String fileName) {
        return Path.of(System.getProperty("mech.host.libs", "target/host-libs")).resolve(fileName).toAbsolutePath();
    }

    /**
     * The third-party libraries of the false-sharing corpus, as this test JVM has them on its class
     * path (test-scoped dependencies): the Disruptor, Agrona, JCTools and Caffeine.
     *
     * @return a class path of their four jars
     */
    public static String libraries() {
        final List<String> jars = new ArrayList<>();
        for (final String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            final String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("disruptor-") || name.startsWith("agrona-") || name.startsWith("jctools-core-")
                || name.startsWith("caffeine-")) {
                jars.add(entry);
            }
        }
        if (jars.size() != 4) {
            throw new IllegalStateException("expected the Disruptor, Agrona, JCTools and Caffeine on the test class path, found " + jars);
        }
        return String.join(File.pathSeparator, jars);
    }

    /** The jar or directory a class was loaded from. */
    public static Path codeSource(final Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
