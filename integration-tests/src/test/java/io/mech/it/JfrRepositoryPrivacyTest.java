package io.mech.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mech.it.hosts.SleepingHost;
import io.mech.testing.Await;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JFR repository the JVM makes for mech's stream (here opened from the first second by the
 * causes, {@code hiccup.causes.jfr=on}; by default it opens on demand) is owner-only, so what a host
 * killed with -9 leaves there is not for other users to read.
 */
@QuietHosts
class JfrRepositoryPrivacyTest {

    @TempDir
    Path dir;

    /** The repository the JVM of a pid made under a temporary directory, or null while there is none. */
    private static Path repositoryOf(final Path tmp, final long pid) throws Exception {
        try (Stream<Path> files = Files.list(tmp)) {
            return files.filter(file -> file.getFileName().toString().matches("\\d{4}(_\\d{2}){5}_" + pid)).findFirst().orElse(null);
        }
    }

    /**
     * @return whether the directory is there and owner-only; false when it went between the listing
     *         and this read (ci31: a repository listed was gone the next moment, and the wait broke
     *         off there instead of going on to the one the JVM keeps)
     */
    private static boolean ownerOnly(final Path directory) throws Exception {
        try {
            return directory != null && Files.getPosixFilePermissions(directory, LinkOption.NOFOLLOW_LINKS)
                .equals(PosixFilePermissions.fromString("rwx------"));
        } catch (final NoSuchFileException gone) {
            return false;
        }
    }

    @ParameterizedTest
    @MethodSource("io.mech.it.Jdks#all")
    void theRepositoryIsOwnerOnlyAndStaysSoAfterAKill(final Path jdk) throws Exception {
        Assumptions.assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"), "needs POSIX permissions");
        // JFR makes its repository under java.io.tmpdir: one of the test's own, so the kill leaves nothing in /tmp.
        final Path tmp = Files.createDirectories(dir.resolve("tmp"));
        final Forked host = Forked.start(dir, Forked.javaWithMech(jdk, "prometheus.port=0,hiccup.causes.jfr=on",
            "-Djava.io.tmpdir=" + tmp, "-cp", Paths.testClasses(), SleepingHost.class.getName(), "60000"));
        final AtomicReference<Path> seen = new AtomicReference<>();
        final Path repository;
        try {
            repository = Await.value("an owner-only repository", Duration.ofSeconds(30), Duration.ofMillis(50), () -> {
                seen.set(repositoryOf(tmp, host.pid()));
                return ownerOnly(seen.get()) ? seen.get() : null;
            });
        } catch (final AssertionError none) {
            host.kill();
            throw new AssertionError(none.getMessage() + ": " + seen.get() + " "
                + (seen.get() == null ? "" : Files.getPosixFilePermissions(seen.get())) + "; " + host.await(30).err(), none);
        }
        final Forked.Result properties = Forked.run(dir, List.of(jdk.resolve("bin/jcmd").toString(), Long.toString(host.pid()),
            "VM.system_properties"), 60);
        assertTrue(properties.out().contains("jdk.jfr.repository=" + repository), "the JVM names it: " + properties.out());

        host.kill();
        assertEquals(137, host.await(30).exit(), "killed");
        assertTrue(ownerOnly(repository), "left behind, and still owner-only");
        try (Stream<Path> chunks = Files.list(repository)) {
            assertTrue(chunks.anyMatch(file -> file.toString().endsWith(".jfr")), "with the recording's chunks in it");
        }
    }
}
