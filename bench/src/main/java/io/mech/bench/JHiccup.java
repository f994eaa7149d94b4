package io.mech.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * jHiccup, the hiccup recorder users would pick instead of mech, run as an agent so that mech's
 * figures can be read beside it. The jar is jHiccup built from its public repository; the bench
 * runs it and never copies it.
 *
 * @param jar     the agent jar
 * @param version its manifest's Implementation-Version, which the results' header names
 */
record JHiccup(Path jar, String version) {

    /** Where CI and a fresh clone keep the jar, relative to the repository's root. */
    static final String USUAL_PATH = "../shared/tools/jHiccup.jar";

    /**
     * The jar at a path.
     *
     * @return empty when there is no file there
     * @throws IOException when the file is there but is no jar
     */
    static Optional<JHiccup> at(final Path jar) throws IOException {
        if (!Files.isRegularFile(jar)) {
            return Optional.empty();
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            final Manifest manifest = file.getManifest();
            final String version = manifest == null ? null : manifest.getMainAttributes().getValue("Implementation-Version");
            return Optional.of(new JHiccup(jar, version == null ? "version unknown" : version));
        }
    }

    /**
     * The {@code -javaagent} argument that records from start-up on (delay 0), sampling every
     * millisecond and logging an interval histogram every intervalMillis.
     *
     * @param log where it logs; jHiccup replaces {@code %pid} in it
     */
    String agentArg(final long intervalMillis, final Path log) {
        // jHiccup splits its arguments on commas, spaces and semicolons: such a path would be cut short
        if (log.toString().matches(".*[ ,;].*")) {
            throw new IllegalArgumentException("jHiccup cannot log to a path with a space, comma or semicolon: " + log);
        }
        return "-javaagent:" + jar + "=-d,0,-i," + intervalMillis + ",-r,1,-l," + log;
    }
}
