package io.mech.it;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /** The jar or directory a class was loaded from. */
    public static Path codeSource(final Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
